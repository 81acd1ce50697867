// A lavender field under a summer sky: a graded sky with soft clouds, rows of violet
// converging on a far farmhouse, greens showing through, a lone tree.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky, then clouds lifted out with paper-coloured washes.
  brush.fillBleed(0.6);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#8fb3d9", 160);
  band(-300, -40);
  brush.fill("#f3ead6", 170);
  for (let i = 0; i < 4; i++) {
    brush.circle(-200 + i * 130 + random(-20, 20), -200 + random(-30, 30), 50 + random(20), true);
  }

  // Ground: a green wash under everything, then violet rows narrowing to the horizon.
  brush.fill("#9cb07a", 150);
  band(-50, 300);
  brush.fillBleed(0.3);
  brush.fillTexture(0.6, 0.6);
  for (let i = -5; i <= 5; i++) {
    brush.fill(i % 2 ? "#8a6bbf" : "#6e4fa6", 160);
    brush.beginShape(0.2);
    brush.vertex(i * 8, -40);
    brush.vertex(i * 8 + 4, -40);
    brush.vertex(i * 70 + 25, 300);
    brush.vertex(i * 70 - 15, 300);
    brush.endShape(CLOSE);
  }
  // Deeper violet glazed over the nearest rows.
  brush.fill("#4b3480", 110);
  brush.fillBleed(0.4);
  band(200, 300);

  // Farmhouse and tree on the horizon.
  brush.fillBleed(0.15);
  brush.fill("#d9a36a", 190);
  brush.beginShape(0);
  brush.vertex(120, -45);
  brush.vertex(170, -45);
  brush.vertex(170, -75);
  brush.vertex(145, -95);
  brush.vertex(120, -75);
  brush.endShape(CLOSE);
  brush.fill("#3f5a35", 180);
  brush.fillBleed(0.35);
  brush.circle(-150, -85, 35, true);
  brush.circle(-130, -95, 28, true);
}

function band(top, bottom) {
  brush.beginShape(0.4);
  brush.vertex(-330, top + random(-10, 10));
  brush.vertex(0, top + random(-15, 15));
  brush.vertex(330, top + random(-10, 10));
  brush.vertex(330, bottom);
  brush.vertex(-330, bottom);
  brush.endShape(CLOSE);
}
