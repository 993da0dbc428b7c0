/**
 * A real 48×32 PNG (a three-bar chart, 126 bytes) for the multimodal tool result. It is sent
 * as a data: URI because the inspector displays those inline (the upstream sends an image
 * URL path instead, which would need a file backend).
 */
export const CHART_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAADAAAAAgCAMAAABjCgsuAAAAD1BMVEX///9gYGBChfT0oAAPnVjX84RwAAAAKklEQVR42mNgoAtgpKYGFhgY1TCqYVQDFTUwwcDg1MAMA8NaA9GAHgU3AMwmBQWhNz5KAAAAAElFTkSuQmCC';

export const CHART_PNG_DATA_URI = `data:image/png;base64,${CHART_PNG_BASE64}`;
