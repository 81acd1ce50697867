// Two coral koi in a pond: pale water deepening to emerald, teal and indigo at the edges,
// lily pads glazed over it, then each fish as a coral body with crimson patches, and ripples.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // The pond: dark pools at the corners, bleeding towards the pale centre.
  brush.fillTexture(0.7, 0.3);
  brush.fillBleed(0.5);
  const corners = [[-230, -230, "#2a8c58"], [240, -220, "#1d6f72"], [220, 240, "#37408c"], [-230, 220, "#1d6f72"]];
  for (const [x, y, colour] of corners) {
    brush.fill(colour, 180);
    brush.circle(x, y, 150, true);
  }

  // Lily pads: sage discs with a wedge cut out.
  brush.fillBleed(0.2);
  brush.fillTexture(0.5, 0.6);
  pad(-190, 170, 70, 0.4);
  pad(200, -190, 60, 2.2);
  pad(230, 60, 40, 4.0);

  koi(-40, -40, 0.6);
  koi(90, 90, 3.6);

  // Ripples: thin crescents of pale blue over everything.
  brush.fill("#2e8ac4", 130);
  brush.fillBleed(0.1);
  for (let i = 0; i < 5; i++) {
    const a = random(TWO_PI);
    const r = random(120, 260);
    crescent(r * cos(a), r * sin(a), random(20, 45));
  }
}

// A fish swimming along `heading` from (x, y): body, then scarlet patches, then fins.
function koi(x, y, heading) {
  push();
  translate(x, y);
  rotate(heading);
  brush.fillTexture(0.4, 0.5);
  brush.fillBleed(0.15);
  brush.fill("#ee7a62", 200);
  shape([[-100, 0], [-50, -38], [50, -34], [115, -6], [115, 6], [50, 34], [-50, 38]], 0.8);
  brush.fill("#a91f3c", 170);
  brush.circle(-40, -8, 28, true);
  brush.circle(25, 10, 24, true);
  brush.fill("#d2362b", 170);
  brush.circle(70, -4, 16, true);
  brush.fill("#ee7a62", 150);
  shape([[-80, -10], [-165, -45], [-140, 0], [-165, 45], [-80, 10]], 0.6);
  shape([[15, -30], [-10, -70], [-30, -28]], 0.6);
  shape([[15, 30], [-10, 70], [-30, 28]], 0.6);
  pop();
}

// A lily pad of radius r with a notch facing `notch` radians.
function pad(x, y, r, notch) {
  brush.fill("#2a8c58", 170);
  brush.beginShape(0.7);
  brush.vertex(x, y);
  for (let a = notch + 0.35; a < notch + TWO_PI - 0.3; a += 0.7) {
    brush.vertex(x + r * cos(a), y + r * sin(a));
  }
  brush.endShape(CLOSE);
}

// A thin ripple arc around (x, y).
function crescent(x, y, r) {
  brush.beginShape(0.9);
  brush.vertex(x - r, y);
  brush.vertex(x, y - r * 0.5);
  brush.vertex(x + r, y);
  brush.vertex(x, y - r * 0.35);
  brush.endShape(CLOSE);
}

// A closed wash through the given points.
function shape(points, curvature) {
  brush.beginShape(curvature);
  for (const [px, py] of points) {
    brush.vertex(px, py);
  }
  brush.endShape(CLOSE);
}
