// A cobalt teapot beside a cup: a warm wall and a pale cloth, the pot glazed from sky blue
// to cobalt with a white highlight left as paper, soft shadows and a steaming cup.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Wall and cloth.
  brush.fillBleed(0.55);
  brush.fillTexture(0.5, 0.3);
  brush.fill("#e3b98f", 140);
  slab(-300, 80);
  brush.fill("#d6dbe0", 150);
  slab(60, 300);

  // Shadows first, cool and soft.
  brush.fill("#8a8fb0", 110);
  brush.fillBleed(0.5);
  brush.circle(60, 180, 130, true);
  brush.circle(210, 190, 60, true);

  // The pot: a light body, a deeper glaze on its shaded side, then spout, handle, lid.
  brush.fillBleed(0.3);
  brush.fillTexture(0.5, 0.5);
  brush.fill("#7fa7d9", 190);
  brush.circle(-20, 80, 115, true);
  brush.fill("#5a82c8", 170);
  brush.circle(-5, 90, 100, true);
  brush.fill("#3a5fae", 180);
  brush.circle(10, 100, 85, true);
  brush.fill("#22397a", 160);
  brush.circle(40, 120, 50, true);
  brush.fill("#1a2a5a", 130);
  brush.circle(55, 135, 25, true);
  brush.fill("#3a5fae", 180);
  spout(-120, 60);
  handle(95, 40);
  brush.fill("#5a82c8", 180);
  brush.circle(-20, -40, 40, true);
  brush.fill("#22397a", 190);
  brush.circle(-20, -75, 12);
  // The highlight: paper glazed back over the blue.
  brush.fill("#f3ead6", 150);
  brush.fillBleed(0.4);
  brush.circle(-60, 40, 22, true);

  // A cup with a little steam.
  brush.fillBleed(0.25);
  brush.fill("#eeeae0", 200);
  brush.circle(200, 150, 42, true);
  brush.fill("#3a5fae", 120);
  brush.circle(212, 160, 25, true);
  brush.fill("#c9c2b8", 90);
  brush.fillBleed(0.7);
  brush.circle(195, 80, 20, true);
  brush.circle(205, 45, 16, true);
}

function slab(top, bottom) {
  brush.beginShape(0.3);
  brush.vertex(-330, top + random(-10, 10));
  brush.vertex(330, top + random(-10, 10));
  brush.vertex(330, bottom);
  brush.vertex(-330, bottom);
  brush.endShape(CLOSE);
}

function spout(x, y) {
  brush.beginShape(0.5);
  brush.vertex(x + 30, y + 20);
  brush.vertex(x - 40, y - 50);
  brush.vertex(x - 30, y - 60);
  brush.vertex(x + 30, y - 10);
  brush.endShape(CLOSE);
}

function handle(x, y) {
  brush.beginShape(0.8);
  brush.vertex(x, y - 40);
  brush.vertex(x + 60, y - 20);
  brush.vertex(x + 55, y + 50);
  brush.vertex(x, y + 60);
  brush.vertex(x + 30, y + 35);
  brush.vertex(x + 32, y - 10);
  brush.endShape(CLOSE);
}
