-- Restaurant portal: the hero photo staff upload (an object key in storage; served by the app).
ALTER TABLE restaurants ADD COLUMN hero_image_key text;
