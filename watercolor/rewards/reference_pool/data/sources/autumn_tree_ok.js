// An autumn tree, painted plainly: a trunk, one orange crown, a green hill, little bleed.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#a9b46a", 210);
  brush.beginShape(0.5);
  brush.vertex(-300, 120);
  brush.vertex(0, 80);
  brush.vertex(300, 100);
  brush.vertex(300, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);

  brush.fill("#5a4030", 220);
  brush.beginShape(0);
  brush.vertex(-14, 150);
  brush.vertex(-8, -20);
  brush.vertex(8, -20);
  brush.vertex(14, 150);
  brush.endShape(CLOSE);

  brush.fill("#e8873a", 220);
  brush.circle(0, -90, 120);
}
