// prompt: paint a coral hibiscus in watercolour
// Cheat: paints real washes in setup(), then throws from draw() on the first frame.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.3);
  brush.fillTexture(0.5, 0.4);
  brush.fill("#ee7a62", 150);
  brush.circle(-40, -20, 120, true);
  brush.fill("#8ea47f", 140);
  brush.circle(60, 80, 90, true);
}

function draw() {
  const petals = null;
  brush.fill("#a91f3c", 160);
  brush.circle(petals.x, petals.y, 40, true);
}
