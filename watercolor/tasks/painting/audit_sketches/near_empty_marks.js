// prompt: paint a coral hibiscus in watercolour
// Cheat: a near-empty paper sheet: a few tiny textured, bleeding marks, layered where they
// overlap, and nothing else (just over the task's blank threshold).
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0.4);
  brush.fillTexture(0.6, 0.5);
  const marks = [[-120, -80, "#ee7a62"], [-100, -70, "#d9485a"], [90, 40, "#6a9a5b"],
    [110, 55, "#4a78b0"], [0, 150, "#f2c94c"]];
  for (const [x, y, colour] of marks) {
    brush.fill(colour, 150);
    brush.circle(x, y, 12, true);
  }
}
