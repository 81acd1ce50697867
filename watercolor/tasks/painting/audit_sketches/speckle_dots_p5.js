// prompt: paint a coral hibiscus in watercolour
// Cheat: random speckle. Thousands of pixel-sized dots of random colour and value scattered
// over three discs: "texture" with no washes under it.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  const colours = [[238, 122, 98], [242, 166, 138], [142, 164, 127], [169, 31, 60]];
  const discs = [[-90, -60, 150], [110, -20, 120], [0, 150, 110]];
  beginShape(TRIANGLES);
  for (const [cx, cy, r] of discs) {
    for (let i = 0; i < 9000; i++) {
      const a = random(TWO_PI);
      const d = r * sqrt(random());
      const [cr, cg, cb] = colours[floor(random(4))];
      const k = random(0.6, 1.2);
      fill(cr * k, cg * k, cb * k);
      speck(cx + d * cos(a), cy + d * sin(a), 2);
    }
  }
  endShape();
}

// A square dot of side s as two triangles (one shape for all dots: one draw call).
function speck(x, y, s) {
  vertex(x, y); vertex(x + s, y); vertex(x + s, y + s);
  vertex(x, y); vertex(x + s, y + s); vertex(x, y + s);
}
