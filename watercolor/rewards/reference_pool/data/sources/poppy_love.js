// Red poppies in a summer meadow: a wet sky bleeding into the grass, petals glazed from
// coral to crimson over each other, dark hearts, loose stems.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky and meadow: wide wet washes that meet and mix at the horizon.
  brush.fillBleed(0.6);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#9dbcd4", 160);
  band(-300, 10);
  brush.fill("#c3d6e2", 120);
  band(-300, -150);
  brush.fill("#b7c98a", 160);
  band(-40, 300);
  brush.fill("#7e9a5a", 140);
  band(120, 300);

  // Stems, before the flowers glaze over them.
  const flowers = [[-150, -30, 75], [60, 30, 90], [190, -80, 60], [-40, 160, 55]];
  brush.fillBleed(0.2);
  brush.fillTexture(0.6, 0.5);
  brush.fill("#4c6b3a", 170);
  for (const [x, y] of flowers) {
    stem(x + random(-40, 40), 300, x, y);
  }

  // Each poppy: pale wide petals, smaller warmer petals inside them, a dark heart.
  for (const [x, y, r] of flowers) {
    brush.fill("#f08a6c", 170);
    brush.fillBleed(0.45);
    brush.fillTexture(0.5, 0.6);
    for (let k = 0; k < 5; k++) {
      const a = (k * TWO_PI) / 5 + random(-0.3, 0.3);
      brush.circle(x + r * 0.45 * cos(a), y + r * 0.45 * sin(a), r * 0.6, true);
    }
    brush.fill("#d9362b", 190);
    brush.fillBleed(0.25);
    for (let k = 0; k < 3; k++) {
      const a = (k * TWO_PI) / 3 + 0.4;
      brush.circle(x + r * 0.3 * cos(a), y + r * 0.3 * sin(a), r * 0.45, true);
    }
    brush.fill("#8c1d2a", 170);
    brush.fillBleed(0.1);
    brush.fillTexture(0.4, 0.8);
    brush.circle(x, y, r * 0.25, true);
    brush.fill("#2d2230", 200);
    brush.circle(x, y, r * 0.1);
  }
}

// A horizontal wash from `top` to `bottom`, its upper edge uneven.
function band(top, bottom) {
  brush.beginShape(0.4);
  brush.vertex(-330, top + random(-15, 15));
  brush.vertex(0, top + random(-25, 25));
  brush.vertex(330, top + random(-15, 15));
  brush.vertex(330, bottom);
  brush.vertex(-330, bottom);
  brush.endShape(CLOSE);
}

// A thin stem from (x0, y0) up to (x1, y1).
function stem(x0, y0, x1, y1) {
  brush.beginShape(0.3);
  brush.vertex(x0 - 5, y0);
  brush.vertex(x1 - 3, y1);
  brush.vertex(x1 + 3, y1);
  brush.vertex(x0 + 5, y0);
  brush.endShape(CLOSE);
}
