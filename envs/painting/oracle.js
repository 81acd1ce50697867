// prompt: paint a coral hibiscus in watercolour
// The oracle reply (openenv.yaml): the reward set's palette as layered washes over cream
// paper, textured and bleeding, each ring of eight translucent discs overlapping the last.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fillTexture(1, 1);
  brush.fillBleed(0.6);
  // ring 1: eight washes 80 px from the centre, turned 0.0 rad
  brush.fill("#e8665a", 90);
  brush.circle(80, 0, 150, true);
  brush.fill("#f5b08a", 90);
  brush.circle(57, 57, 150, true);
  brush.fill("#d9485a", 90);
  brush.circle(0, 80, 150, true);
  brush.fill("#f2c94c", 90);
  brush.circle(-57, 57, 150, true);
  brush.fill("#6a9a5b", 90);
  brush.circle(-80, 0, 150, true);
  brush.fill("#9cc3d9", 90);
  brush.circle(-57, -57, 150, true);
  brush.fill("#4a78b0", 90);
  brush.circle(-0, -80, 150, true);
  brush.fill("#8a5ac0", 90);
  brush.circle(57, -57, 150, true);
  // ring 2: eight washes 140 px from the centre, turned 0.4 rad
  brush.fill("#e8665a", 90);
  brush.circle(129, 55, 110, true);
  brush.fill("#f5b08a", 90);
  brush.circle(53, 130, 110, true);
  brush.fill("#d9485a", 90);
  brush.circle(-55, 129, 110, true);
  brush.fill("#f2c94c", 90);
  brush.circle(-130, 53, 110, true);
  brush.fill("#6a9a5b", 90);
  brush.circle(-129, -55, 110, true);
  brush.fill("#9cc3d9", 90);
  brush.circle(-53, -130, 110, true);
  brush.fill("#4a78b0", 90);
  brush.circle(55, -129, 110, true);
  brush.fill("#8a5ac0", 90);
  brush.circle(130, -53, 110, true);
}
