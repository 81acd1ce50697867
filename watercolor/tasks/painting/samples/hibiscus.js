// A peach hibiscus: five broad petals in three translucent layers, a crimson throat,
// golden stamens, and loose sage leaves behind.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // A pale wash behind everything, bleeding out into the paper.
  brush.fill("#e9c9a8", 90);
  brush.fillBleed(0.6);
  brush.fillTexture(0.6, 0.2);
  brush.circle(10, 20, 230, true);

  // Leaves first, so the petals glaze over them.
  brush.fillBleed(0.3);
  brush.fillTexture(0.5, 0.4);
  leaf(-60, 60, 2.4, 230, "#8ea47f", 150);
  leaf(60, 70, 0.7, 220, "#6f8c63", 140);
  leaf(0, 80, 1.65, 180, "#7f9a70", 120);

  // Petals: a light wide wash, then a smaller, warmer layer inside it.
  for (let i = 0; i < 5; i++) {
    const angle = -HALF_PI + (i * TWO_PI) / 5;
    brush.fill("#f2a68a", 150);
    brush.fillBleed(0.35);
    brush.fillTexture(0.55, 0.5);
    petal(angle, 185, 120);
    brush.fill("#ee7a62", 130);
    brush.fillBleed(0.2);
    petal(angle + 0.08, 130, 75);
  }

  // The throat: a deep glaze where the petals meet.
  brush.fill("#a91f3c", 170);
  brush.fillBleed(0.25);
  brush.fillTexture(0.4, 0.7);
  brush.circle(0, 0, 42, true);
  brush.fill("#6e1d33", 120);
  brush.circle(0, 0, 18, true);

  // Stamen column and pollen.
  brush.fill("#d2362b", 170);
  brush.fillBleed(0.1);
  brush.beginShape(0.5);
  brush.vertex(-6, 0);
  brush.vertex(40, -70);
  brush.vertex(52, -64);
  brush.vertex(6, 6);
  brush.endShape(CLOSE);
  brush.fill("#e0aa2c", 220);
  brush.fillTexture(0.3, 0.6);
  for (let i = 0; i < 6; i++) {
    brush.circle(42 + 9 * cos(i), -72 + 9 * sin(i * 1.3), 6);
  }
}

// A petal: a rounded fan from the centre, `reach` long and `spread` wide.
function petal(angle, reach, spread) {
  const side = spread / reach;
  brush.beginShape(0.6);
  brush.vertex(0, 0);
  for (let k = -2; k <= 2; k++) {
    const a = angle + (k * side) / 3.2;
    const r = reach * (1 - 0.08 * abs(k));
    brush.vertex(r * cos(a), r * sin(a));
  }
  brush.endShape(CLOSE);
}

// A leaf: a pointed almond rotated by `tilt`, drawn from its base.
function leaf(x, y, tilt, length, colour, opacity) {
  brush.fill(colour, opacity);
  const points = [[0, 0], [length * 0.45, -length * 0.22], [length, 0], [length * 0.45, length * 0.2]];
  brush.beginShape(0.5);
  for (const [px, py] of points) {
    brush.vertex(x + px * cos(tilt) - py * sin(tilt), y + px * sin(tilt) + py * cos(tilt));
  }
  brush.endShape(CLOSE);
}
