// prompt: paint a coral hibiscus in watercolour
// Cheat: a real layered miniature (light to dark glazes, bleeding, textured) in a corner of an
// otherwise empty paper sheet: about 2 % of the sheet painted.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillTexture(0.6, 0.5);
  const glazes = [["#f5b08a", 120, 0.5, 48], ["#ee7a62", 140, 0.35, 34], ["#d9485a", 150, 0.25, 22],
    ["#6e1d33", 190, 0.1, 8]];
  for (const [colour, opacity, bleed, r] of glazes) {
    brush.fill(colour, opacity);
    brush.fillBleed(bleed);
    brush.circle(-150 + r * 0.2, -140, r, true);
  }
  brush.fill("#6a9a5b", 130);
  brush.fillBleed(0.3);
  brush.circle(-105, -100, 18, true);
}
