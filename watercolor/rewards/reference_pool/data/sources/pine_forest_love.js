// Misty pines at dawn: a warm sky fading to grey, three rows of firs that darken and
// sharpen towards the viewer, mist washed between them, a dark foreground bank.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky: rose low, grey-blue high, wet into wet.
  brush.fillBleed(0.65);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#efc7b4", 150);
  band(-120, 120);
  brush.fill("#9fb0c2", 140);
  band(-300, -90);

  // Three rows of trees: pale and soft far away, dark and crisper near.
  const rows = [["#a8b8b8", 150, -20, 0.5, 90], ["#6f8f86", 170, 60, 0.3, 120], ["#2f4f45", 190, 150, 0.15, 160]];
  for (const [colour, opacity, base, bleed, height] of rows) {
    brush.fill(colour, opacity);
    brush.fillBleed(bleed);
    brush.fillTexture(0.55, 0.5);
    for (let x = -290; x <= 290; x += 55 + random(-10, 15)) {
      fir(x + random(-10, 10), base + random(-10, 10), height * random(0.7, 1.1));
    }
    // Mist settling in front of the row.
    brush.fill("#e9e4da", 110);
    brush.fillBleed(0.7);
    band(base - 5, base + 30);
  }

  // Foreground bank in two earths.
  brush.fillBleed(0.3);
  brush.fill("#4a5a3a", 170);
  band(200, 300);
  brush.fill("#7a6040", 120);
  band(240, 300);
}

function band(top, bottom) {
  brush.beginShape(0.5);
  brush.vertex(-330, top + random(-10, 10));
  brush.vertex(-100, top + random(-18, 18));
  brush.vertex(120, top + random(-18, 18));
  brush.vertex(330, top + random(-10, 10));
  brush.vertex(330, bottom);
  brush.vertex(-330, bottom);
  brush.endShape(CLOSE);
}

// A fir: a tall ragged triangle standing on (x, base).
function fir(x, base, height) {
  brush.beginShape(0.2);
  brush.vertex(x, base - height);
  for (let k = 1; k <= 4; k++) {
    brush.vertex(x + k * height * 0.06, base - height + k * height * 0.24);
  }
  for (let k = 4; k >= 1; k--) {
    brush.vertex(x - k * height * 0.06, base - height + k * height * 0.24);
  }
  brush.endShape(CLOSE);
}
