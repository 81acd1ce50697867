// A lighthouse on a headland, painted plainly: one wash for each part, little bleed.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#a9c6dc", 190);
  quad4(-300, -300, 300, 40);
  brush.fill("#3f7d96", 210);
  quad4(-300, 40, 300, 300);

  brush.fill("#9a7f5a", 220);
  brush.beginShape(0);
  brush.vertex(300, 300);
  brush.vertex(0, 300);
  brush.vertex(80, 60);
  brush.vertex(300, 40);
  brush.endShape(CLOSE);

  brush.fill("#eeeae0", 230);
  quad4(120, -150, 180, 60);
  brush.fill("#c23b32", 220);
  quad4(120, -100, 180, -70);
  quad4(120, -30, 180, 0);
}

function quad4(x0, y0, x1, y1) {
  brush.beginShape(0);
  brush.vertex(x0, y0);
  brush.vertex(x1, y0);
  brush.vertex(x1, y1);
  brush.vertex(x0, y1);
  brush.endShape(CLOSE);
}
