// A cobalt teapot and a cup, painted plainly: one flat-ish wash for each shape.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#d6dbe0", 200);
  brush.beginShape(0);
  brush.vertex(-300, 70);
  brush.vertex(300, 70);
  brush.vertex(300, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);

  brush.fill("#3a5fae", 220);
  brush.circle(-20, 80, 110);
  brush.circle(-20, -40, 38);
  brush.beginShape(0);
  brush.vertex(-90, 80);
  brush.vertex(-160, 10);
  brush.vertex(-150, 0);
  brush.vertex(-90, 50);
  brush.endShape(CLOSE);

  brush.fill("#eeeae0", 230);
  brush.circle(200, 150, 42);
}
