// A lavender field, painted plainly: a sky wash, green ground, violet rows, little bleed.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#8fb3d9", 200);
  box4(-300, -300, 300, -40);
  brush.fill("#9cb07a", 210);
  box4(-300, -40, 300, 300);
  brush.fill("#7a5bb5", 220);
  for (let i = -4; i <= 4; i++) {
    brush.beginShape(0);
    brush.vertex(i * 8, -40);
    brush.vertex(i * 8 + 4, -40);
    brush.vertex(i * 70 + 25, 300);
    brush.vertex(i * 70 - 15, 300);
    brush.endShape(CLOSE);
  }
}

function box4(x0, y0, x1, y1) {
  brush.beginShape(0);
  brush.vertex(x0, y0);
  brush.vertex(x1, y0);
  brush.vertex(x1, y1);
  brush.vertex(x0, y1);
  brush.endShape(CLOSE);
}
