// prompt: paint a coral hibiscus in watercolour
// Cheat: translucent plain ellipses (p5 fill with alpha): real overlaps, but hard edges,
// no bleed, no texture, no pigment variation.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  noStroke();
  const colours = [[238, 122, 98], [242, 166, 138], [142, 164, 127], [169, 31, 60]];
  for (let i = 0; i < 12; i++) {
    const [r, g, b] = colours[i % 4];
    fill(r, g, b, 90);
    ellipse(80 * cos(2.4 * i), 80 * sin(2.4 * i), 260 + 50 * sin(1.7 * i), 220);
  }
}
