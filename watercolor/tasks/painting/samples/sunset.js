// A violet sunset sky: warm bands glazed over each other from the horizon up, a low sun
// that bleeds into them, streaks of cloud, and a dark shoreline against the light.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Bands from the top down; each overlaps the next so the colours mix where they meet.
  const bands = [
    ["#7a4ca6", 170, -320, -150],
    ["#b4a0d6", 150, -190, -40],
    ["#ee7a62", 150, -80, 60],
    ["#e0aa2c", 160, 20, 130],
  ];
  brush.fillTexture(0.5, 0.3);
  brush.fillBleed(0.5);
  for (const [colour, opacity, top, bottom] of bands) {
    brush.fill(colour, opacity);
    brush.beginShape(0.4);
    brush.vertex(-330, top + random(-20, 20));
    brush.vertex(0, top + random(-30, 30));
    brush.vertex(330, top + random(-20, 20));
    brush.vertex(330, bottom);
    brush.vertex(-330, bottom);
    brush.endShape(CLOSE);
  }

  // The sun, soft-edged, then a brighter core.
  brush.fill("#f2a68a", 140);
  brush.fillBleed(0.7);
  brush.circle(-60, 70, 75, true);
  brush.fill("#e0aa2c", 170);
  brush.fillBleed(0.3);
  brush.circle(-60, 75, 45, true);

  // Long clouds: thin lavender and magenta streaks across the bands.
  brush.fillBleed(0.25);
  brush.fillTexture(0.7, 0.5);
  for (let i = 0; i < 6; i++) {
    const y = -220 + i * 45 + random(-10, 10);
    const x = random(-250, 150);
    brush.fill(i % 2 ? "#c1307e" : "#7a4ca6", 110);
    brush.beginShape(0.8);
    brush.vertex(x, y);
    brush.vertex(x + 90, y - 12);
    brush.vertex(x + 220, y - 4);
    brush.vertex(x + 130, y + 10);
    brush.endShape(CLOSE);
  }

  // Shoreline and its reflection: the darkest values go on last.
  brush.fill("#37408c", 190);
  brush.fillBleed(0.15);
  brush.fillTexture(0.4, 0.7);
  brush.beginShape(0.3);
  brush.vertex(-330, 150);
  for (let x = -300; x <= 330; x += 60) {
    brush.vertex(x, 140 - 40 * noise(x * 0.01));
  }
  brush.vertex(330, 330);
  brush.vertex(-330, 330);
  brush.endShape(CLOSE);
  brush.fill("#e0aa2c", 120);
  brush.fillBleed(0.4);
  for (let i = 0; i < 5; i++) {
    brush.circle(-60 + random(-30, 30), 190 + i * 22, 30 - 4 * i, true);
  }
}
