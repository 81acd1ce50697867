// Pines in front of a sky, painted plainly: one wash per tree, little bleed or grain.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#b7c4d0", 190);
  brush.beginShape(0);
  brush.vertex(-300, -300);
  brush.vertex(300, -300);
  brush.vertex(300, 120);
  brush.vertex(-300, 120);
  brush.endShape(CLOSE);

  brush.fill("#3f5f52", 220);
  for (let x = -260; x <= 260; x += 75) {
    brush.beginShape(0);
    brush.vertex(x, -20);
    brush.vertex(x + 35, 140);
    brush.vertex(x - 35, 140);
    brush.endShape(CLOSE);
  }
  brush.fill("#4a5a3a", 220);
  brush.beginShape(0);
  brush.vertex(-300, 140);
  brush.vertex(300, 140);
  brush.vertex(300, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);
}
