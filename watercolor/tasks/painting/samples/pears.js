// Two olive pears on a table: a cast shadow first, then each pear in a light body wash,
// a darker glaze on its shaded side, a warm blush, and a sepia stem.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Table top and the pears' shadow on it.
  brush.fill("#c8a878", 150);
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.2);
  brush.beginShape(0.2);
  brush.vertex(-330, 120);
  brush.vertex(330, 100);
  brush.vertex(330, 330);
  brush.vertex(-330, 330);
  brush.endShape(CLOSE);
  brush.fill("#566577", 110);
  brush.fillBleed(0.3);
  brush.beginShape(0.7);
  brush.vertex(-170, 150);
  brush.vertex(140, 125);
  brush.vertex(250, 160);
  brush.vertex(-60, 190);
  brush.endShape(CLOSE);

  pear(-90, 40, 1.0, 0.1);
  pear(95, 20, 0.85, -0.15);
}

// One pear centred at (x, y): body wash, shade, blush, stem.
function pear(x, y, size, lean) {
  push();
  translate(x, y);
  rotate(lean);
  scale(size);
  brush.fillTexture(0.5, 0.5);
  brush.fillBleed(0.3);
  brush.fill("#b5b85a", 150);
  pearShape(1);
  brush.fill("#75782f", 140);
  brush.fillBleed(0.2);
  push();
  translate(22, 10);
  pearShape(0.7);
  pop();
  brush.fill("#ee7a62", 130);
  brush.fillBleed(0.5);
  brush.circle(-30, 40, 35, true);
  brush.fill("#704f35", 200);
  brush.fillBleed(0);
  brush.beginShape(0.5);
  brush.vertex(-2, -118);
  brush.vertex(8, -160);
  brush.vertex(14, -158);
  brush.vertex(6, -116);
  brush.endShape(CLOSE);
  pop();
}

// The pear silhouette: a small round top over a wide round base.
function pearShape(k) {
  brush.beginShape(0.9);
  const outline = [[0, -120], [35, -95], [45, -30], [95, 40], [70, 115], [0, 135],
    [-70, 115], [-95, 40], [-45, -30], [-35, -95]];
  for (const [px, py] of outline) {
    brush.vertex(px * k, py * k);
  }
  brush.endShape(CLOSE);
}
