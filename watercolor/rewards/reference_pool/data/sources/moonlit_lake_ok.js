// A moonlit lake, painted plainly: sky, moon, hills and water, one wash each.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#3e4a8a", 210);
  box4(-300, -300, 300, 60);
  brush.fill("#f7edc0", 230);
  brush.circle(110, -150, 38);
  brush.fill("#1c2440", 220);
  brush.beginShape(0.4);
  brush.vertex(-300, 70);
  brush.vertex(-150, -20);
  brush.vertex(0, 30);
  brush.vertex(150, -10);
  brush.vertex(300, 70);
  brush.endShape(CLOSE);
  brush.fill("#2a3670", 220);
  box4(-300, 70, 300, 300);
}

function box4(x0, y0, x1, y1) {
  brush.beginShape(0);
  brush.vertex(x0, y0);
  brush.vertex(x1, y0);
  brush.vertex(x1, y1);
  brush.vertex(x0, y1);
  brush.endShape(CLOSE);
}
