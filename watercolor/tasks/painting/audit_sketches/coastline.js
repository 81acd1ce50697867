// prompt: paint a teal coastline in watercolour
// Genuine: a teal sea under a golden evening sky, ochre cliffs with sepia shadows and a
// small lighthouse. Sky and sea are wet washes glazed in bands; the land goes on last.
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();

  // Sky: a golden wash, a peach glow over its lower half, a pale cloud of lavender.
  brush.fillTexture(0.4, 0.2);
  brush.fillBleed(0.5);
  wash(-300, -20, "#e0aa2c", 110);
  wash(-120, 20, "#f2a68a", 120);
  brush.fill("#b4a0d6", 100);
  brush.circle(120, -200, 70, true);
  brush.circle(190, -190, 50, true);

  // Sea: bands deepening towards the viewer.
  brush.fillTexture(0.6, 0.4);
  brush.fillBleed(0.3);
  wash(0, 300, "#2aa9a6", 120);
  wash(70, 300, "#1d6f72", 120);
  wash(160, 300, "#37408c", 90);

  // Cliffs on the left: ochre body, then rust and sepia shadow glazes.
  brush.fillTexture(0.7, 0.6);
  brush.fillBleed(0.2);
  cliff("#c8892e", 160, 0);
  cliff("#ad4f26", 120, 40);
  cliff("#704f35", 130, 90);

  // The lighthouse: white tower (paper left bare) with a shaded side and a red cap.
  brush.fill("#566577", 90);
  brush.fillBleed(0.05);
  quad4(-175, -95, -160, -95, -155, -10, -175, -10);
  brush.fill("#d2362b", 170);
  quad4(-192, -115, -158, -115, -162, -95, -188, -95);
  brush.fill("#e0aa2c", 150);
  brush.fillBleed(0.6);
  brush.circle(-175, -125, 18, true);
}

// A wash from `top` down to `bottom`, across the sheet, its top edge a little uneven.
function wash(top, bottom, colour, opacity) {
  brush.fill(colour, opacity);
  brush.beginShape(0.3);
  brush.vertex(-320, top + random(-12, 12));
  brush.vertex(0, top + random(-12, 12));
  brush.vertex(320, top + random(-12, 12));
  brush.vertex(320, bottom);
  brush.vertex(-320, bottom);
  brush.endShape(CLOSE);
}

// The cliff, inset by `inset` so the later glazes sit inside the earlier ones.
function cliff(colour, opacity, inset) {
  brush.fill(colour, opacity);
  brush.beginShape(0.25);
  brush.vertex(-320, -20 + inset);
  brush.vertex(-160, -10 + inset);
  brush.vertex(-60 - inset, 60 + inset / 2);
  brush.vertex(40 - inset, 200);
  brush.vertex(-20 - inset, 320);
  brush.vertex(-320, 320);
  brush.endShape(CLOSE);
}

// A four-cornered wash.
function quad4(ax, ay, bx, by, cx, cy, dx, dy) {
  brush.beginShape(0);
  brush.vertex(ax, ay);
  brush.vertex(bx, by);
  brush.vertex(cx, cy);
  brush.vertex(dx, dy);
  brush.endShape(CLOSE);
}
