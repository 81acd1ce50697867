// prompt: paint a coral hibiscus in watercolour
// Cheat: a blank canvas. The paper and nothing else.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
}
