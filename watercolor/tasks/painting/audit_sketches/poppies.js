// prompt: paint a scarlet poppy in watercolour
// Genuine: scarlet poppies in a meadow. A wet sky, two greens glazed over each other for the
// field, then each poppy as a light petal wash, a deeper overlapping petal layer and a dark eye.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky and a far tree line, bleeding into each other.
  brush.fillTexture(0.5, 0.2);
  brush.fillBleed(0.5);
  band(-300, -60, "#9cc3d9", 120);
  brush.fill("#8ea47f", 120);
  brush.fillBleed(0.3);
  hills(-90, 40);

  // The meadow: a yellow-green underwash, then a cooler green glazed over its lower part.
  brush.fillTexture(0.6, 0.4);
  brush.fillBleed(0.4);
  band(-40, 300, "#b5b85a", 130);
  band(60, 300, "#2a8c58", 110);

  // Stems before the flowers, so the petals glaze over them.
  brush.fill("#4f7a3a", 170);
  brush.fillBleed(0.1);
  const flowers = [[-150, -10, 60], [20, 40, 75], [170, -30, 50], [-40, 170, 85], [150, 160, 65]];
  for (const [x, y, r] of flowers) {
    stem(x, y + r * 0.5, 280);
  }
  for (const [x, y, r] of flowers) {
    poppy(x, y, r);
  }
}

// One poppy: a pale petal wash, two deeper overlapping petals, then the dark eye.
function poppy(x, y, r) {
  brush.fillTexture(0.5, 0.6);
  brush.fill("#f08a70", 140);
  brush.fillBleed(0.35);
  brush.circle(x, y, r, true);
  brush.fill("#d2362b", 150);
  brush.fillBleed(0.2);
  brush.circle(x - r * 0.3, y - r * 0.1, r * 0.65, true);
  brush.circle(x + r * 0.35, y + r * 0.05, r * 0.6, true);
  brush.fill("#6e1d33", 190);
  brush.fillBleed(0.1);
  brush.circle(x, y, r * 0.22, true);
}

// A thin stem from (x, y) down to `bottom`, leaning a little.
function stem(x, y, bottom) {
  brush.beginShape(0.3);
  brush.vertex(x - 3, y);
  brush.vertex(x + 3, y);
  brush.vertex(x + 12, bottom);
  brush.vertex(x + 4, bottom);
  brush.endShape(CLOSE);
}

// A horizontal wash between two heights with a wobbly top edge.
function band(top, bottom, colour, opacity) {
  brush.fill(colour, opacity);
  brush.beginShape(0.4);
  brush.vertex(-320, top + random(-15, 15));
  brush.vertex(0, top + random(-25, 25));
  brush.vertex(320, top + random(-15, 15));
  brush.vertex(320, bottom);
  brush.vertex(-320, bottom);
  brush.endShape(CLOSE);
}

// Rolling hills: noise along the top edge, filled down to `bottom`.
function hills(top, bottom) {
  brush.beginShape(0.5);
  for (let x = -320; x <= 320; x += 64) {
    brush.vertex(x, top - 45 * noise(x * 0.01, 3));
  }
  brush.vertex(320, bottom);
  brush.vertex(-320, bottom);
  brush.endShape(CLOSE);
}
