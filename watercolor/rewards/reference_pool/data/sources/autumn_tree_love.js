// An autumn tree on a hill: a pale sky, a crown built from overlapping washes of ochre,
// orange and rust, the trunk showing through, fallen leaves bleeding into the grass.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  brush.fillBleed(0.6);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#b9cfe0", 140);
  hill(-300, -300, 150);
  brush.fill("#a9b46a", 160);
  hill(120, 80, 300);
  brush.fill("#7d8a45", 120);
  hill(200, 170, 300);

  // Trunk and branches.
  brush.fillBleed(0.2);
  brush.fillTexture(0.6, 0.6);
  brush.fill("#5a4030", 190);
  limb(0, 150, 0, -20, 16);
  limb(0, 40, -90, -60, 8);
  limb(0, 20, 80, -80, 8);

  // Crown: many round washes, light to dark, each colour a new layer.
  const layers = [["#f2c94c", 150, 60, 0.5], ["#e8873a", 150, 48, 0.4], ["#b8452a", 140, 34, 0.3]];
  for (const [colour, opacity, size, bleed] of layers) {
    brush.fill(colour, opacity);
    brush.fillBleed(bleed);
    brush.fillTexture(0.55, 0.6);
    for (let i = 0; i < 9; i++) {
      const a = random(TWO_PI);
      const d = random(20, 120);
      brush.circle(d * cos(a), -90 + d * 0.7 * sin(a), size * random(0.7, 1.2), true);
    }
  }

  // Fallen leaves.
  brush.fillBleed(0.4);
  for (let i = 0; i < 10; i++) {
    brush.fill(i % 2 ? "#e8873a" : "#b8452a", 150);
    brush.circle(random(-180, 180), 170 + random(-20, 60), 8 + random(10), true);
  }
}

// A hill: a wash under a curve from `left` to `right` heights, down to the bottom.
function hill(left, middle, right) {
  brush.beginShape(0.6);
  brush.vertex(-330, left);
  brush.vertex(0, middle);
  brush.vertex(330, right === 300 ? middle + 20 : right);
  brush.vertex(330, 300);
  brush.vertex(-330, 300);
  brush.endShape(CLOSE);
}

function limb(x0, y0, x1, y1, width) {
  brush.beginShape(0.3);
  brush.vertex(x0 - width, y0);
  brush.vertex(x1 - width / 3, y1);
  brush.vertex(x1 + width / 3, y1);
  brush.vertex(x0 + width, y0);
  brush.endShape(CLOSE);
}
