import { abortable } from "../abortable.js";
import { sleep, type Clock } from "../clock.js";
import { failed, numberParam, stringParam, succeeded, type CommandOutcome } from "../command-outcome.js";
import type { CommandContext, CommandHandler } from "../command-router.js";
import { describeError } from "../daemon-requests.js";
import type { PageScripting } from "../page-scripting.js";

/** The result travels in one `/sync` body (5 MB); leave room for the rest of the request. */
const MAX_DATA_URL_LENGTH = 4.5 * 1024 * 1024;
const LOWEST_QUALITY = 30;

type ImageFormat = "png" | "jpeg";

interface Image {
  dataUrl: string;
  width: number;
  height: number;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function decode(dataUrl: string): Promise<ImageBitmap> {
  const blob = await (await fetch(dataUrl)).blob();
  return createImageBitmap(blob);
}

async function toDataUrl(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  const chunk = 0x8000;
  for (let offset = 0; offset < bytes.length; offset += chunk) binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk));
  return `data:${blob.type};base64,${btoa(binary)}`;
}

async function encode(bitmap: ImageBitmap, source: Rect, scale: number, format: ImageFormat, quality: number): Promise<Image> {
  const width = Math.max(1, Math.round(source.width * scale));
  const height = Math.max(1, Math.round(source.height * scale));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("no 2d context for the screenshot");
  context.drawImage(bitmap, source.x, source.y, source.width, source.height, 0, 0, width, height);
  const blob = await canvas.convertToBlob(format === "png" ? { type: "image/png" } : { type: "image/jpeg", quality: quality / 100 });
  return { dataUrl: await toDataUrl(blob), width, height };
}

/** captureVisibleTab allows about two calls a second; one retry covers back-to-back screenshots. */
async function captureVisible(windowId: number, format: ImageFormat, quality: number, clock: Clock, signal: AbortSignal): Promise<string> {
  const options: chrome.extensionTypes.ImageDetails = format === "png" ? { format } : { format, quality };
  try {
    return await chrome.tabs.captureVisibleTab(windowId, options);
  } catch (error) {
    if (!/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(describeError(error))) throw error;
    await sleep(clock, 600, signal);
    return chrome.tabs.captureVisibleTab(windowId, options);
  }
}

/**
 * `screenshot` (observe screenshot): the tracked tab's visible area, activated first because Chrome
 * only captures the visible tab of a window. With `selector` the image is cropped to the element
 * (scrolled into view first). `full_page` is not supported: the visible viewport is returned and
 * the result says so.
 */
export function screenshotCommand(scripting: PageScripting, clock: Clock): CommandHandler {
  return async (context: CommandContext): Promise<CommandOutcome> => {
    let format: ImageFormat = stringParam(context.params, "format") === "png" ? "png" : "jpeg";
    let quality = Math.min(Math.max(Math.round(numberParam(context.params, "quality") ?? 80), 1), 100);
    const selector = stringParam(context.params, "selector");
    const tab = await chrome.tabs.get(context.tabId);
    if (!tab.active) {
      await chrome.tabs.update(context.tabId, { active: true });
      await sleep(clock, 250, context.signal);
    }
    let crop: { rect: Rect; viewportWidth: number } | undefined;
    if (selector !== undefined && selector.trim() !== "") {
      const answer = await abortable(scripting.runToolkit(context.tabId, "element_rect", { selector }), context.signal);
      if (!answer.ok) return failed(answer.error, answer.message, answer.details ?? {});
      const viewport = answer.value.viewport as { width: number };
      crop = { rect: answer.value.rect as Rect, viewportWidth: viewport.width };
      await sleep(clock, 100, context.signal);
    }

    const captured = await abortable(captureVisible(tab.windowId, format, quality, clock, context.signal), context.signal);
    const bitmap = await decode(captured);
    let source: Rect = { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
    if (crop) {
      const pixelsPerCssPixel = bitmap.width / crop.viewportWidth;
      const left = Math.max(0, Math.floor(crop.rect.x * pixelsPerCssPixel));
      const top = Math.max(0, Math.floor(crop.rect.y * pixelsPerCssPixel));
      const right = Math.min(bitmap.width, Math.ceil((crop.rect.x + crop.rect.width) * pixelsPerCssPixel));
      const bottom = Math.min(bitmap.height, Math.ceil((crop.rect.y + crop.rect.height) * pixelsPerCssPixel));
      if (right <= left || bottom <= top) return failed("element_not_visible", `The element matching "${selector}" is not inside the visible area.`);
      source = { x: left, y: top, width: right - left, height: bottom - top };
    }
    let image: Image = crop ? await encode(bitmap, source, 1, format, quality) : { dataUrl: captured, width: bitmap.width, height: bitmap.height };
    let scale = 1;
    while (image.dataUrl.length > MAX_DATA_URL_LENGTH) {
      if (format === "png") format = "jpeg";
      else if (quality > LOWEST_QUALITY) quality = Math.max(LOWEST_QUALITY, quality - 20);
      else scale /= 2;
      image = await encode(bitmap, source, scale, format, quality);
    }
    bitmap.close();
    const result: Record<string, unknown> = {
      data_url: image.dataUrl,
      format,
      width: image.width,
      height: image.height,
      url: tab.url ?? "",
    };
    if (format === "jpeg") result.quality = quality;
    if (scale !== 1) result.scale = scale;
    if (selector) result.selector = selector;
    if (context.params.full_page === true) result.full_page = "unsupported: the visible viewport was captured";
    return succeeded(result);
  };
}
