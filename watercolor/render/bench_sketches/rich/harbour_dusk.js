// A harbour at dusk, written the way frontier models write this task: many washes glazed over
// one another, a wash ground, stroke brushes picked with brush.set, flow lines on a field.
const PAPER = "#f4ecd8";
const SKY = ["#f2c6a0", "#e9a27c", "#c9788a", "#7d6b9e"];
const WATER = ["#6c8fb3", "#4f7396", "#2f4f6f"];
const HILLS = ["#8a9a7b", "#6f7f62", "#55644b"];

function setup() {
  createCanvas(600, 600, WEBGL);
  background(PAPER);
  brush.scaleBrushes(2.5);
  angleMode(DEGREES);

  // Sky: four glazes, each a band a little lower than the last.
  brush.noStroke();
  brush.fillBleed(0.35, "out");
  brush.fillTexture(0.5, 0.4);
  for (let i = 0; i < SKY.length; i++) {
    brush.fill(SKY[i], 70 + i * 10);
    brush.beginShape(0.4);
    brush.vertex(-300, -300);
    brush.vertex(300, -300);
    brush.vertex(300, -40 - i * 45);
    brush.vertex(0, -60 - i * 40);
    brush.vertex(-300, -30 - i * 50);
    brush.endShape(CLOSE);
  }

  // Sun, glazed twice, with a soft halo.
  brush.fillBleed(0.5);
  brush.fill("#f7d98b", 110);
  brush.circle(120, -120, 55);
  brush.fill("#f3b562", 90);
  brush.circle(118, -118, 38);

  // Far hills: overlapping translucent ridges.
  brush.fillBleed(0.25, "in");
  brush.fillTexture(0.6, 0.3);
  for (let i = 0; i < HILLS.length; i++) {
    brush.fill(HILLS[i], 95);
    brush.beginShape(0.6);
    brush.vertex(-300, 40);
    brush.vertex(-300, -20 + i * 15);
    brush.vertex(-180, -70 + i * 20);
    brush.vertex(-60, -30 + i * 18);
    brush.vertex(60, -80 + i * 22);
    brush.vertex(200, -35 + i * 15);
    brush.vertex(300, -55 + i * 20);
    brush.vertex(300, 40);
    brush.endShape(CLOSE);
  }

  // Water: a flat wash ground, then glazes and reflections.
  brush.wash("#9fb6c9", 120);
  brush.rect(-300, 40, 600, 260);
  brush.noWash();
  brush.fillBleed(0.3, "out");
  for (let i = 0; i < WATER.length; i++) {
    brush.fill(WATER[i], 60 + i * 15);
    brush.beginShape(0.3);
    brush.vertex(-300, 60 + i * 60);
    brush.vertex(300, 50 + i * 60);
    brush.vertex(300, 300);
    brush.vertex(-300, 300);
    brush.endShape(CLOSE);
  }
  for (let i = 0; i < 6; i++) {
    brush.fill("#f7d98b", 45);
    brush.rect(90 + random(-20, 20), 60 + i * 28, 60 - i * 6, 8);
  }

  // Boats: hulls, sails and their reflections.
  const boats = [[-150, 110, 1.0], [-20, 150, 0.8], [180, 120, 0.9]];
  for (const [x, y, s] of boats) {
    brush.fillBleed(0.15);
    brush.fill("#5a3e36", 160);
    brush.beginShape(0.2);
    brush.vertex(x - 60 * s, y);
    brush.vertex(x + 60 * s, y);
    brush.vertex(x + 40 * s, y + 25 * s);
    brush.vertex(x - 40 * s, y + 25 * s);
    brush.endShape(CLOSE);
    brush.fill("#efe3cf", 150);
    brush.beginShape(0.1);
    brush.vertex(x, y - 5);
    brush.vertex(x, y - 120 * s);
    brush.vertex(x - 55 * s, y - 5);
    brush.endShape(CLOSE);
    brush.fill("#5a3e36", 40);
    brush.rect(x - 45 * s, y + 30 * s, 90 * s, 40 * s);
    brush.set("HB", "#3b2a24", 1.2);
    brush.line(x, y, x, y - 125 * s);
    brush.noStroke();
  }

  // Ripples and foreground grass with flow lines on a field.
  brush.field("seabed");
  brush.set("pen", "#2f4f6f", 0.8);
  for (let i = 0; i < 24; i++) {
    brush.flowLine(random(-280, 260), random(70, 280), random(40, 110), 0);
  }
  brush.field("curved");
  brush.set("charcoal", "#55644b", 1.1);
  for (let i = 0; i < 18; i++) {
    brush.flowLine(-300 + i * 34, 300, random(50, 120), -90);
  }
  brush.noField();

  // A last dark glaze in the corner to anchor the composition.
  brush.noStroke();
  brush.fillBleed(0.4, "in");
  brush.fill("#2f3a4f", 55);
  brush.beginShape(0.5);
  brush.vertex(-300, 180);
  brush.vertex(-120, 220);
  brush.vertex(-60, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);
}
