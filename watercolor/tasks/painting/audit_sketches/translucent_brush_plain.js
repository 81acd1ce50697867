// prompt: paint a coral hibiscus in watercolour
// Cheat: translucent fills through the brush library with bleed and texture off: washes that
// overlap, but with clean edges and no grain.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0);
  brush.fillTexture(0, 0);
  const colours = ["#ee7a62", "#f2a68a", "#8ea47f", "#a91f3c"];
  for (let i = 0; i < 12; i++) {
    brush.fill(colours[i % 4], 110);
    brush.circle(80 * cos(2.4 * i), 80 * sin(2.4 * i), 110 + 25 * sin(1.7 * i));
  }
}
