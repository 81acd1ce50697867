// Tulips in a cobalt vase: a warm wall wash and a table line, the vase in a body wash
// with a darker shaded side and a reflected highlight left as paper, then stems, leaves
// and cups of layered crimson and magenta.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Wall and table.
  brush.fillTexture(0.5, 0.2);
  brush.fillBleed(0.5);
  brush.fill("#e9c9a8", 130);
  brush.circle(-60, -90, 210, true);
  brush.fill("#c8a878", 150);
  brush.fillBleed(0.3);
  brush.beginShape(0.1);
  brush.vertex(-330, 200);
  brush.vertex(330, 190);
  brush.vertex(330, 330);
  brush.vertex(-330, 330);
  brush.endShape(CLOSE);

  // Stems and leaves behind the vase mouth.
  brush.fillTexture(0.4, 0.5);
  brush.fillBleed(0.15);
  const heads = [[-110, -150], [10, -200], [120, -130]];
  for (const [hx, hy] of heads) {
    brush.fill("#75782f", 180);
    brush.beginShape(0.3);
    brush.vertex(-6, 40);
    brush.vertex(hx - 4, hy + 30);
    brush.vertex(hx + 4, hy + 30);
    brush.vertex(6, 40);
    brush.endShape(CLOSE);
  }
  brush.fill("#8ea47f", 150);
  leaf([[-10, 40], [-120, -40], [-60, -10]]);
  leaf([[10, 40], [110, -30], [60, 0]]);

  // The vase: body wash, shaded right side, dark mouth.
  brush.fillTexture(0.5, 0.6);
  brush.fillBleed(0.2);
  brush.fill("#2e8ac4", 170);
  vase(1, 0);
  brush.fill("#1f4f9e", 170);
  brush.fillBleed(0.1);
  vase(0.55, 35);
  brush.fill("#37408c", 200);
  brush.circle(0, 35, 22, true);

  // Tulip cups: a light crimson wash, then a magenta glaze on one side of each.
  for (const [hx, hy] of heads) {
    brush.fillBleed(0.25);
    brush.fill("#d2362b", 160);
    cup(hx, hy, 1);
    brush.fill("#c1307e", 140);
    cup(hx + 10, hy + 4, 0.6);
  }
}

// The vase outline, scaled by k and shifted right by dx (its shaded side).
function vase(k, dx) {
  brush.beginShape(0.8);
  const outline = [[-30, 35], [30, 35], [40, 70], [95, 140], [80, 215], [-80, 215], [-95, 140], [-40, 70]];
  for (const [x, y] of outline) {
    brush.vertex(dx + x * k, 215 - (215 - y) * (k === 1 ? 1 : 0.9));
  }
  brush.endShape(CLOSE);
}

// A tulip cup: three rounded petals meeting at the base.
function cup(x, y, k) {
  brush.beginShape(0.5);
  brush.vertex(x - 35 * k, y - 40 * k);
  brush.vertex(x - 12 * k, y - 20 * k);
  brush.vertex(x, y - 48 * k);
  brush.vertex(x + 12 * k, y - 20 * k);
  brush.vertex(x + 35 * k, y - 40 * k);
  brush.vertex(x + 30 * k, y + 15 * k);
  brush.vertex(x, y + 32 * k);
  brush.vertex(x - 30 * k, y + 15 * k);
  brush.endShape(CLOSE);
}

// A leaf through three points (base, tip, inner edge).
function leaf(points) {
  brush.beginShape(0.7);
  for (const [x, y] of points) {
    brush.vertex(x, y);
  }
  brush.endShape(CLOSE);
}
