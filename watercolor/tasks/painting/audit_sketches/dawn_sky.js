// prompt: paint a lavender dawn sky in watercolour
// Genuine (faint): a quiet dawn in thin washes. Pale lavender and peach bands glazed over
// each other, a soft sun, low slate hills; the paper does much of the work.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  brush.fillTexture(0.5, 0.3);
  brush.fillBleed(0.6);
  band(-320, -80, "#b4a0d6", 120);
  band(-160, 40, "#f2a68a", 110);
  band(-20, 120, "#e0aa2c", 100);
  brush.fill("#f2a68a", 130);
  brush.circle(90, 10, 55, true);

  // Distant hills, then nearer ones a little stronger.
  brush.fillBleed(0.3);
  brush.fillTexture(0.6, 0.5);
  hills(110, "#8e93b0", 120, 2);
  hills(170, "#566577", 130, 5);
  brush.fillBleed(0.5);
  band(230, 320, "#b4a0d6", 100);
}

// A horizontal wash between two heights, its edges a little uneven.
function band(top, bottom, colour, opacity) {
  brush.fill(colour, opacity);
  brush.beginShape(0.5);
  brush.vertex(-320, top + random(-20, 20));
  brush.vertex(0, top + random(-20, 20));
  brush.vertex(320, top + random(-20, 20));
  brush.vertex(320, bottom + random(-10, 10));
  brush.vertex(-320, bottom + random(-10, 10));
  brush.endShape(CLOSE);
}

// A ridge of low hills whose top follows noise, filled down off the sheet.
function hills(base, colour, opacity, octave) {
  brush.fill(colour, opacity);
  brush.beginShape(0.4);
  for (let x = -320; x <= 320; x += 80) {
    brush.vertex(x, base - 50 * noise(x * 0.008, octave));
  }
  brush.vertex(320, 320);
  brush.vertex(-320, 320);
  brush.endShape(CLOSE);
}
