// A cobalt mountain range: a graded sky, three ridges that darken as they come forward,
// a still lake that mirrors them, and a warm foreground bank.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky: two wide, wet washes that bleed into each other.
  brush.fillTexture(0.4, 0.2);
  brush.fillBleed(0.5);
  band(-320, -60, "#a9c6e0", 160);
  brush.fill("#e0aa2c", 150);
  brush.circle(150, -170, 60, true);

  // Ridges from far to near: lighter and bluer far away, deeper and sharper up close.
  brush.fillTexture(0.5, 0.5);
  peaks(-10, 190, 1, "#8aa2c8", 140, 0.35);
  peaks(40, 150, 2, "#4e6fa8", 150, 0.25);
  peaks(90, 90, 3, "#1f4f9e", 170, 0.15);

  // The lake: a cool band, then the ridges' reflection as a broken, paler glaze.
  brush.fillBleed(0.2);
  band(95, 190, "#9dbbd6", 120);
  brush.fill("#1f4f9e", 70);
  brush.fillTexture(0.7, 0.3);
  for (let i = 0; i < 5; i++) {
    const x = -260 + i * 120 + random(-20, 20);
    brush.beginShape(0.4);
    brush.vertex(x - 50, 100);
    brush.vertex(x + 50, 100);
    brush.vertex(x + 20, 150 + random(20));
    brush.vertex(x - 20, 150 + random(20));
    brush.endShape(CLOSE);
  }

  // Foreground bank: ochre under sepia, painted wet-on-wet.
  brush.fillTexture(0.6, 0.6);
  brush.fillBleed(0.4);
  ridge(200, 40, 0.02, 4, "#c8892e", 150, 0.3, 320);
  ridge(240, 30, 0.03, 5, "#704f35", 130, 0.2, 320);
}

// A mountain ridge: alternating saddles and noisy summits, filled down to the lake.
function peaks(base, height, octave, colour, opacity, bleed) {
  brush.fill(colour, opacity);
  brush.fillBleed(bleed);
  brush.beginShape(0.15);
  for (let j = 0; j <= 12; j++) {
    const lift = j % 2 === 0 ? 0.25 * noise(j, octave) : 0.6 + 0.4 * noise(j, octave + 5);
    brush.vertex(-330 + j * 55 + random(-12, 12), base - height * lift);
  }
  brush.vertex(330, 110);
  brush.vertex(-330, 110);
  brush.endShape(CLOSE);
}

// A horizontal wash between two heights, slightly wobbly at its edges.
function band(top, bottom, colour, opacity) {
  brush.fill(colour, opacity);
  brush.beginShape(0.3);
  brush.vertex(-320, top);
  brush.vertex(320, top);
  brush.vertex(320, bottom);
  brush.vertex(-320, bottom + 10);
  brush.endShape(CLOSE);
}

// A rolling ridge from noise at height `base` (amplitude `height`), filled down to `floor`.
function ridge(base, height, step, octave, colour, opacity, bleed, floor) {
  brush.fill(colour, opacity);
  brush.fillBleed(bleed);
  brush.beginShape(0.1);
  for (let x = -320; x <= 320; x += 40) {
    brush.vertex(x, base - height * noise(x * step + octave * 10, octave));
  }
  brush.vertex(320, floor);
  brush.vertex(-320, floor);
  brush.endShape(CLOSE);
}
