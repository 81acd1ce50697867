// A moonlit lake: an indigo night glazed in layers, a soft moon with a halo, dark hills,
// and the moon's broken reflection bleeding into the water.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Night sky: violet, then indigo, then a deeper glaze at the top, wet into wet.
  brush.fillBleed(0.6);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#8a86b8", 170);
  band(-300, 60);
  brush.fill("#3e4a8a", 170);
  band(-300, -60);
  brush.fill("#23285a", 150);
  band(-300, -200);

  // The moon: a halo lifted with paper colour, then a pale yellow disc.
  brush.fill("#f3ead6", 140);
  brush.fillBleed(0.7);
  brush.circle(110, -150, 70, true);
  brush.fill("#f7edc0", 230);
  brush.fillBleed(0.2);
  brush.circle(110, -150, 38, true);
  brush.fill("#fbf3d0", 230);
  brush.fillBleed(0.1);
  brush.circle(110, -150, 30, true);

  // Hills: two overlapping dark washes.
  brush.fillBleed(0.25);
  brush.fillTexture(0.6, 0.5);
  brush.fill("#2f3a5a", 180);
  ridge(0, 40);
  brush.fill("#1c2440", 180);
  ridge(60, 70);

  // The lake: a deep wash, then the reflection in broken strokes.
  brush.fillBleed(0.4);
  brush.fill("#2a3670", 170);
  band(75, 300);
  brush.fill("#f3e7b0", 220);
  brush.fillBleed(0.3);
  for (let i = 0; i < 7; i++) {
    const y = 100 + i * 26;
    const w = 40 - i * 4 + random(-6, 6);
    brush.beginShape(0.6);
    brush.vertex(110 - w, y);
    brush.vertex(110 + w, y + random(-3, 3));
    brush.vertex(110 + w * 0.8, y + 8);
    brush.vertex(110 - w * 0.8, y + 8);
    brush.endShape(CLOSE);
  }
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

// A ridge of hills whose foot is at `base`; `shift` moves the peaks.
function ridge(shift, base) {
  brush.beginShape(0.5);
  brush.vertex(-330, base);
  for (let x = -300; x <= 300; x += 75) {
    brush.vertex(x, base - 40 - 60 * noise(x * 0.01 + shift));
  }
  brush.vertex(330, base);
  brush.endShape(CLOSE);
}
