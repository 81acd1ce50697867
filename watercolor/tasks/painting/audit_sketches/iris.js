// prompt: paint a violet iris in watercolour
// Genuine: two violet irises. A lavender ground wash, blade-like leaves in two greens that
// cross each other, then petals built light to dark, with a golden beard on each fall.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  brush.fill("#b4a0d6", 90);
  brush.fillBleed(0.6);
  brush.fillTexture(0.5, 0.2);
  brush.circle(0, -40, 210, true);

  // Leaves: long blades rising from the bottom, crossing so the glazes stack.
  brush.fillTexture(0.5, 0.5);
  brush.fillBleed(0.25);
  const blades = [[-120, -0.25, "#8ea47f"], [-40, 0.15, "#2a8c58"], [60, -0.1, "#8ea47f"],
    [130, 0.3, "#2a8c58"], [0, -0.35, "#75782f"]];
  for (const [x, lean, colour] of blades) {
    brush.fill(colour, 140);
    blade(x, 300, lean, 330);
  }

  iris(-70, -110, 1.0);
  iris(110, -20, 0.8);
}

// One iris at (x, y): three standards up, three falls down, a deeper glaze and a beard.
function iris(x, y, k) {
  push();
  translate(x, y);
  scale(k);
  brush.fillTexture(0.6, 0.6);
  for (let i = 0; i < 3; i++) {
    const up = -HALF_PI + (i - 1) * 0.7;
    const down = HALF_PI + (i - 1) * 1.1;
    brush.fill("#b4a0d6", 150);
    brush.fillBleed(0.35);
    petal(up, 95, 0.5);
    brush.fill("#7a4ca6", 150);
    brush.fillBleed(0.25);
    petal(down, 120, 0.6);
    brush.fill("#37408c", 120);
    brush.fillBleed(0.15);
    petal(down + 0.05, 75, 0.35);
    brush.fill("#e0aa2c", 190);
    brush.fillBleed(0.1);
    brush.circle(40 * cos(down), 40 * sin(down), 9, true);
  }
  pop();
}

// A petal from the centre along `angle`: a pointed oval `reach` long, `width` radians wide.
function petal(angle, reach, width) {
  brush.beginShape(0.7);
  brush.vertex(0, 0);
  brush.vertex(0.6 * reach * cos(angle - width), 0.6 * reach * sin(angle - width));
  brush.vertex(reach * cos(angle), reach * sin(angle));
  brush.vertex(0.6 * reach * cos(angle + width), 0.6 * reach * sin(angle + width));
  brush.endShape(CLOSE);
}

// A leaf blade from (x, base) leaning by `lean`, `length` tall.
function blade(x, base, lean, length) {
  const tipX = x + length * sin(lean);
  brush.beginShape(0.4);
  brush.vertex(x - 14, base);
  brush.vertex(x + 14, base);
  brush.vertex(tipX + 3, base - length);
  brush.endShape(CLOSE);
}
