// Birch wood in autumn: a wet sky, layered foliage dabs, trunks with dry-brush marks and
// undergrowth drawn with flow lines; a few dozen washes and many strokes.
const FOLIAGE = ["#e8b04b", "#d9852f", "#c4622d", "#a8a048", "#7f8f3a"];

function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.scaleBrushes(2);
  angleMode(DEGREES);
  randomSeed(3);

  // Sky and distance.
  brush.noStroke();
  brush.fillBleed(0.5, "out");
  brush.fillTexture(0.3, 0.3);
  brush.fill("#cfdbe3", 80);
  brush.rect(-300, -300, 600, 260);
  brush.fill("#b9c9d4", 60);
  brush.beginShape(0.5);
  brush.vertex(-300, -120);
  brush.vertex(-100, -150);
  brush.vertex(120, -110);
  brush.vertex(300, -140);
  brush.vertex(300, -40);
  brush.vertex(-300, -40);
  brush.endShape(CLOSE);

  // Distant trees: a row of soft dabs.
  brush.fillBleed(0.35);
  for (let i = 0; i < 14; i++) {
    brush.fill("#9aa6a0", 55);
    brush.circle(-290 + i * 45, -60 + random(-15, 10), random(35, 55));
  }

  // Ground: wash, then glazes.
  brush.wash("#d8c7a0", 130);
  brush.rect(-300, 60, 600, 240);
  brush.noWash();
  brush.fillBleed(0.3, "in");
  brush.fillTexture(0.6, 0.4);
  brush.fill("#b89a62", 70);
  brush.beginShape(0.6);
  brush.vertex(-300, 90);
  brush.vertex(-50, 70);
  brush.vertex(300, 100);
  brush.vertex(300, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);
  brush.fill("#8f7447", 55);
  brush.beginShape(0.6);
  brush.vertex(-300, 200);
  brush.vertex(0, 180);
  brush.vertex(300, 210);
  brush.vertex(300, 300);
  brush.vertex(-300, 300);
  brush.endShape(CLOSE);

  // Foliage: three passes of dabs, warm over cool.
  brush.fillBleed(0.4, "out");
  brush.fillTexture(0.7, 0.5);
  for (let pass = 0; pass < 3; pass++) {
    for (let i = 0; i < 12; i++) {
      brush.fill(FOLIAGE[(i + pass) % FOLIAGE.length], 60 + pass * 15);
      brush.circle(random(-280, 280), random(-250, 40), random(30, 70) - pass * 8);
    }
  }

  // Trunks: pale washes, then dark dry-brush marks.
  const trunks = [-210, -120, -20, 70, 160, 240];
  for (const x of trunks) {
    const w = random(14, 24);
    brush.noStroke();
    brush.fillBleed(0.05);
    brush.fill("#ebe6dc", 170);
    brush.beginShape(0.2);
    brush.vertex(x - w / 2, 220);
    brush.vertex(x - w / 3, -300);
    brush.vertex(x + w / 3, -300);
    brush.vertex(x + w / 2, 220);
    brush.endShape(CLOSE);
    brush.set("charcoal", "#3a3530", 0.9);
    for (let k = 0; k < 7; k++) {
      const y = random(-280, 200);
      brush.line(x - w / 2, y, x + random(-2, w / 3), y + random(2, 6));
    }
    brush.set("HB", "#5a524a", 0.6);
    brush.line(x + w / 2, 220, x + w / 3, -300);
  }
  brush.noStroke();

  // Undergrowth on a field, and fallen leaves.
  brush.field("curved");
  brush.set("pen", "#6f6a3a", 0.7);
  for (let i = 0; i < 30; i++) {
    brush.flowLine(random(-290, 290), random(210, 295), random(30, 80), -90);
  }
  brush.noField();
  brush.noStroke();
  brush.fillBleed(0.2);
  for (let i = 0; i < 12; i++) {
    brush.fill(FOLIAGE[i % FOLIAGE.length], 110);
    brush.circle(random(-280, 280), random(150, 290), random(6, 12));
  }
}
