/** Zoom levels of the image viewer: each step multiplies or divides by 1.25, kept between 10 % and 800 %. */
export const ZOOM_MIN = 0.1;
export const ZOOM_MAX = 8;
const ZOOM_STEP = 1.25;

/** The zoom after one step in (+1) or out (-1), rounded to whole percents so repeated steps do not drift. */
export function zoomed(current: number, direction: 1 | -1): number {
  const next = direction > 0 ? current * ZOOM_STEP : current / ZOOM_STEP;
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(next * 100) / 100));
}

/** A wheel movement as a zoom direction: rolling away from the user (negative deltaY) zooms in. */
export const wheelDirection = (deltaY: number): 1 | -1 | 0 => (deltaY < 0 ? 1 : deltaY > 0 ? -1 : 0);
