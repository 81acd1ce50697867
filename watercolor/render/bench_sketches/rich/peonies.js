// Peonies in a glass jar: petals glazed three times each, leaves with veins, a wash ground,
// hatching in the shadow and spline stems. Dozens of translucent fills, as frontier models
// write for this task.
const PETALS = ["#f4b6c2", "#ee8fa6", "#d8637f", "#b94a6a"];
const LEAVES = ["#9cb380", "#7a9663", "#5c7a4a"];

function petal(cx, cy, angle, length, width, colour, alpha) {
  const ca = cos(angle);
  const sa = sin(angle);
  brush.fill(colour, alpha);
  brush.beginShape(0.7);
  brush.vertex(cx, cy);
  brush.vertex(cx + ca * length * 0.5 - sa * width, cy + sa * length * 0.5 + ca * width);
  brush.vertex(cx + ca * length, cy + sa * length);
  brush.vertex(cx + ca * length * 0.5 + sa * width, cy + sa * length * 0.5 - ca * width);
  brush.endShape(CLOSE);
}

function bloom(cx, cy, size, turns) {
  brush.fillBleed(0.3, "out");
  brush.fillTexture(0.55, 0.35);
  for (let layer = 0; layer < 3; layer++) {
    const count = 7 - layer;
    for (let i = 0; i < count; i++) {
      const angle = (360 / count) * i + layer * 20 + turns;
      petal(cx, cy, angle, size * (1 - layer * 0.25), size * 0.35, PETALS[layer], 70 + layer * 15);
    }
  }
  brush.fill(PETALS[3], 90);
  brush.circle(cx, cy, size * 0.25);
  brush.fill("#f3d27a", 120);
  brush.circle(cx + 3, cy - 2, size * 0.1);
}

function leaf(x, y, angle, length, colour) {
  const ca = cos(angle);
  const sa = sin(angle);
  brush.noStroke();
  brush.fill(colour, 110);
  brush.beginShape(0.8);
  brush.vertex(x, y);
  brush.vertex(x + ca * length * 0.5 - sa * 18, y + sa * length * 0.5 + ca * 18);
  brush.vertex(x + ca * length, y + sa * length);
  brush.vertex(x + ca * length * 0.5 + sa * 18, y + sa * length * 0.5 - ca * 18);
  brush.endShape(CLOSE);
  brush.set("HB", "#44603a", 0.6);
  brush.line(x, y, x + ca * length, y + sa * length);
  brush.noStroke();
}

function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.scaleBrushes(2);
  angleMode(DEGREES);
  randomSeed(7);

  // Background: a warm wash, then two cooler glazes behind the flowers.
  brush.wash("#efe0c4", 140);
  brush.rect(-300, -300, 600, 600);
  brush.noWash();
  brush.noStroke();
  brush.fillBleed(0.45, "out");
  brush.fillTexture(0.4, 0.5);
  brush.fill("#c9d3d8", 60);
  brush.circle(-60, -80, 210);
  brush.fill("#b7c4cc", 50);
  brush.circle(80, -40, 170);

  // Table and its shadow.
  brush.fillBleed(0.2);
  brush.fill("#b08d6a", 100);
  brush.rect(-300, 170, 600, 130);
  brush.fill("#8a6a4f", 70);
  brush.rect(-300, 170, 600, 30);

  // Jar: glass in thin glazes.
  brush.fillBleed(0.1);
  brush.fill("#a9c2c9", 55);
  brush.beginShape(0.6);
  brush.vertex(-70, 60);
  brush.vertex(70, 60);
  brush.vertex(85, 200);
  brush.vertex(-85, 200);
  brush.endShape(CLOSE);
  brush.fill("#8fb0b9", 45);
  brush.rect(-60, 120, 120, 75);

  // Stems as splines.
  brush.set("2B", "#5c7a4a", 1.4);
  const stems = [[-120, -90], [0, -150], [110, -80], [-40, -20], [60, -10]];
  for (const [x, y] of stems) {
    brush.spline([[0, 150], [x * 0.4, 60], [x, y]], 0.5);
  }
  brush.noStroke();

  // Leaves.
  for (let i = 0; i < 10; i++) {
    leaf(random(-120, 120), random(-60, 80), random(-160, -20), random(60, 100), LEAVES[i % 3]);
  }

  // Blooms.
  bloom(-120, -90, 85, 10);
  bloom(0, -150, 95, 35);
  bloom(110, -80, 80, 60);
  bloom(-40, -20, 60, 5);
  bloom(60, -10, 55, 80);

  // Shadow hatching under the jar.
  brush.hatch(6, 30);
  brush.noFill();
  brush.set("HB", "#6b5240", 0.5);
  brush.rect(-110, 195, 220, 30);
  brush.noHatch();
  brush.noStroke();

  // Wood grain on the table, drawn along a field.
  brush.field("seabed");
  brush.set("HB", "#7a5b42", 0.5);
  for (let i = 0; i < 16; i++) {
    brush.flowLine(-290 + i * 36, random(235, 290), random(60, 140), 0);
  }
  brush.noField();
  brush.noStroke();

  // Fallen petals.
  for (let i = 0; i < 6; i++) {
    petal(random(-250, 250), random(230, 280), random(0, 360), 30, 10, PETALS[i % 3], 90);
  }
}
