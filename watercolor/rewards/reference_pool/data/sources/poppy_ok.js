// Red poppies in a meadow, painted plainly: one wash per shape, little bleed or grain.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.05);
  brush.fillTexture(0.1, 0.1);

  brush.fill("#a9c4d8", 190);
  rectangle(-300, -300, 300, 20);
  brush.fill("#9bb36f", 200);
  rectangle(-300, 20, 300, 300);

  brush.fill("#4c6b3a", 210);
  for (const x of [-150, 60, 190, -40]) {
    rectangle(x - 3, 0, x + 3, 300);
  }

  const flowers = [[-150, -10, 70], [60, 40, 85], [190, -60, 55], [-40, 150, 50]];
  for (const [x, y, r] of flowers) {
    brush.fill("#d9362b", 210);
    brush.circle(x, y, r * 0.8);
    brush.fill("#2d2230", 220);
    brush.circle(x, y, r * 0.15);
  }
}

function rectangle(x0, y0, x1, y1) {
  brush.beginShape(0);
  brush.vertex(x0, y0);
  brush.vertex(x1, y0);
  brush.vertex(x1, y1);
  brush.vertex(x0, y1);
  brush.endShape(CLOSE);
}
