import type { Sharp } from 'sharp';
import { loadSharp } from '../../platform/lazy-sharp';
import { readExif } from './exif-reader';
import { KodoError } from './kodo-error';

export interface FopOutput {
  body: Buffer;
  contentType: string;
}

const FORMAT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  tiff: 'image/tiff',
};

export const IMAGE_COMMANDS: ReadonlySet<string> = new Set(['imageView2', 'imageMogr2', 'imageInfo', 'exif', 'imageAve']);

function pairs(parts: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) out.set(parts[i]!, parts[i + 1]!);
  return out;
}

function encode(image: Sharp, format: string, quality: number | undefined, interlace: boolean): Sharp {
  const fmt = format === 'jpg' ? 'jpeg' : format;
  switch (fmt) {
    case 'jpeg':
      return image.jpeg({ quality: quality ?? 85, progressive: interlace });
    case 'png':
      return image.png({ progressive: interlace });
    case 'webp':
      return image.webp({ quality: quality ?? 80 });
    case 'avif':
      return image.avif({ quality: quality ?? 50 });
    case 'gif':
      return image.gif();
    case 'tiff':
      return image.tiff();
    default:
      throw new KodoError(400, `unsupported image format ${format}`);
  }
}

async function sourceFormat(input: Buffer): Promise<{ format: string; width: number; height: number }> {
  const sharp = await loadSharp();
  const meta = await sharp(input)
    .metadata()
    .catch(() => {
      throw new KodoError(400, 'not an image or an unsupported image format');
    });
  return { format: meta.format === 'jpeg' ? 'jpg' : (meta.format ?? 'png'), width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** imageView2/<mode>/w/<W>/h/<H>[/format/<f>][/q/<q>][/interlace/<0|1>]; never enlarges. */
async function imageView2(input: Buffer, parts: string[]): Promise<FopOutput> {
  const sharp = await loadSharp();
  const mode = Number(parts[0]);
  if (!Number.isInteger(mode) || mode < 0 || mode > 5) throw new KodoError(400, 'imageView2: mode must be 0-5');
  const opts = pairs(parts.slice(1));
  const w = opts.has('w') ? Number(opts.get('w')) : undefined;
  const h = opts.has('h') ? Number(opts.get('h')) : undefined;
  if ((w !== undefined && !(w > 0)) || (h !== undefined && !(h > 0))) throw new KodoError(400, 'imageView2: w and h must be positive');
  const src = await sourceFormat(input);
  const format = opts.get('format') ?? src.format;
  const quality = opts.has('q') ? Number(opts.get('q')) : undefined;
  let image = sharp(input).rotate();
  const long = Math.max(src.width, src.height);
  const short = Math.min(src.width, src.height);
  const landscape = src.width >= src.height;
  if (w !== undefined || h !== undefined) {
    if (mode === 1) {
      const tw = w ?? h!;
      const th = h ?? w!;
      image = image.resize(Math.min(tw, src.width), Math.min(th, src.height), { fit: 'cover', position: 'centre' });
    } else if (mode === 2) {
      image = image.resize(w ?? null, h ?? null, { fit: 'inside', withoutEnlargement: true });
    } else if (mode === 3) {
      image = image.resize(w ?? null, h ?? null, { fit: 'outside', withoutEnlargement: true });
    } else {
      // 0/4/5 constrain the long edge by w and the short edge by h.
      const scales = [w !== undefined ? w / long : undefined, h !== undefined ? h / short : undefined].filter(
        (s): s is number => s !== undefined,
      );
      const scale = Math.min(1, mode === 0 ? Math.min(...scales) : Math.max(...scales));
      const nw = Math.max(1, Math.round(src.width * scale));
      const nh = Math.max(1, Math.round(src.height * scale));
      image = image.resize(nw, nh, { fit: 'fill' });
      if (mode === 5 && w !== undefined && h !== undefined) {
        const cw = Math.min(nw, landscape ? w : h);
        const ch = Math.min(nh, landscape ? h : w);
        const resized = await image.toBuffer();
        image = sharp(resized).extract({ left: Math.floor((nw - cw) / 2), top: Math.floor((nh - ch) / 2), width: cw, height: ch });
      }
    }
  }
  const out = await encode(image, format, quality, opts.get('interlace') === '1').toBuffer();
  return { body: out, contentType: FORMAT_TYPES[format] ?? 'application/octet-stream' };
}

/** The imageMogr2 subset: auto-orient, thumbnail, crop, rotate, format, quality, blur, strip. */
async function imageMogr2(input: Buffer, parts: string[]): Promise<FopOutput> {
  const sharp = await loadSharp();
  const src = await sourceFormat(input);
  let format = src.format;
  let quality: number | undefined;
  let buffer = input;
  let width = src.width;
  let height = src.height;
  const apply = async (fn: (img: Sharp) => Sharp) => {
    const result = await fn(sharp(buffer)).toBuffer({ resolveWithObject: true });
    buffer = result.data;
    width = result.info.width;
    height = result.info.height;
  };
  for (let i = 0; i < parts.length; i++) {
    const op = parts[i]!;
    if (op === 'auto-orient') await apply((img) => img.rotate());
    else if (op === 'strip') await apply((img) => img);
    else if (op === 'thumbnail') {
      const spec = decodeURIComponent(parts[++i] ?? '');
      const size = thumbnailSize(spec, width, height);
      if (size) await apply((img) => img.resize(size.width, size.height, { fit: 'fill' }));
    } else if (op === 'crop') {
      const m = /^!?(\d*)x(\d*)$/.exec(decodeURIComponent(parts[++i] ?? ''));
      if (!m) throw new KodoError(400, 'imageMogr2: crop expects WxH');
      const cw = Math.min(width, Number(m[1] || width));
      const ch = Math.min(height, Number(m[2] || height));
      await apply((img) => img.extract({ left: 0, top: 0, width: cw, height: ch }));
    } else if (op === 'rotate') {
      const deg = Number(parts[++i]);
      await apply((img) => img.rotate(deg));
    } else if (op === 'format') format = parts[++i] ?? format;
    else if (op === 'quality' || op === 'q') quality = Number(parts[++i]);
    else if (op === 'blur') {
      const sigma = Number((parts[++i] ?? '').split('x')[1] ?? 1);
      await apply((img) => img.blur(Math.max(0.3, sigma)));
    } else if (op === 'interlace') i++;
    else throw new KodoError(400, `imageMogr2: unsupported operation ${op}`);
  }
  const out = await encode(sharp(buffer), format, quality, false).toBuffer();
  return { body: out, contentType: FORMAT_TYPES[format] ?? 'application/octet-stream' };
}

/** imageMogr2 thumbnail specs: !Pp, !Pxp, !xPp, Wx, xH, WxH, !WxHr, WxH!, WxH>, WxH<, Area@. */
export function thumbnailSize(spec: string, width: number, height: number): { width: number; height: number } | undefined {
  const round = (n: number) => Math.max(1, Math.round(n));
  let m: RegExpExecArray | null;
  if ((m = /^!(\d+(?:\.\d+)?)p$/.exec(spec)))
    return { width: round((width * Number(m[1])) / 100), height: round((height * Number(m[1])) / 100) };
  if ((m = /^!(\d+(?:\.\d+)?)px$/.exec(spec))) return { width: round((width * Number(m[1])) / 100), height };
  if ((m = /^!x(\d+(?:\.\d+)?)p$/.exec(spec))) return { width, height: round((height * Number(m[1])) / 100) };
  if ((m = /^(\d+)x$/.exec(spec))) return { width: Number(m[1]), height: round((height * Number(m[1])) / width) };
  if ((m = /^x(\d+)$/.exec(spec))) return { width: round((width * Number(m[1])) / height), height: Number(m[1]) };
  if ((m = /^!(\d+)x(\d+)r$/.exec(spec))) {
    const scale = Math.max(Number(m[1]) / width, Number(m[2]) / height);
    return { width: round(width * scale), height: round(height * scale) };
  }
  if ((m = /^(\d+)x(\d+)!$/.exec(spec))) return { width: Number(m[1]), height: Number(m[2]) };
  if ((m = /^(\d+)x(\d+)([<>]?)$/.exec(spec))) {
    const scale = Math.min(Number(m[1]) / width, Number(m[2]) / height);
    if (m[3] === '>' && scale >= 1) return undefined;
    if (m[3] === '<' && scale <= 1) return undefined;
    return { width: round(width * scale), height: round(height * scale) };
  }
  if ((m = /^(\d+)@$/.exec(spec))) {
    const scale = Math.sqrt(Number(m[1]) / (width * height));
    return { width: round(width * scale), height: round(height * scale) };
  }
  throw new KodoError(400, `imageMogr2: unsupported thumbnail spec ${spec}`);
}

function json(body: unknown): FopOutput {
  return { body: Buffer.from(JSON.stringify(body)), contentType: 'application/json' };
}

/** Runs one image command (`imageView2/1/w/100`, `imageInfo`, ...) on the bytes of an object. */
export async function runImageCommand(input: Buffer, command: string): Promise<FopOutput> {
  const sharp = await loadSharp();
  const parts = command.split('/').filter((p) => p !== '');
  const name = parts[0] ?? '';
  switch (name) {
    case 'imageView2':
      return imageView2(input, parts.slice(1));
    case 'imageMogr2':
      return imageMogr2(input, parts.slice(1));
    case 'imageInfo': {
      const meta = await sharp(input)
        .metadata()
        .catch(() => {
          throw new KodoError(400, 'not an image');
        });
      const info: Record<string, unknown> = {
        size: input.length,
        format: meta.format === 'jpeg' ? 'jpeg' : meta.format,
        width: meta.width,
        height: meta.height,
        colorModel:
          meta.format === 'jpeg'
            ? meta.channels === 1
              ? 'gray'
              : 'ycbcr'
            : meta.hasAlpha
              ? 'nrgba'
              : meta.channels === 1
                ? 'gray'
                : 'rgb',
      };
      if (meta.pages && meta.pages > 1) info['frameNumber'] = meta.pages;
      if (meta.orientation)
        info['orientation'] = [
          '',
          'Top-left',
          'Top-right',
          'Bottom-right',
          'Bottom-left',
          'Left-top',
          'Right-top',
          'Right-bottom',
          'Left-bottom',
        ][meta.orientation];
      return json(info);
    }
    case 'exif': {
      const meta = await sharp(input)
        .metadata()
        .catch(() => {
          throw new KodoError(400, 'not an image');
        });
      const entries = meta.exif ? readExif(meta.exif) : {};
      if (Object.keys(entries).length === 0) throw new KodoError(400, 'no exif data in this image');
      return json(entries);
    }
    case 'imageAve': {
      const stats = await sharp(input)
        .removeAlpha()
        .toColourspace('srgb')
        .stats()
        .catch(() => {
          throw new KodoError(400, 'not an image');
        });
      const hex = stats.channels
        .slice(0, 3)
        .map((c) => Math.round(c.mean).toString(16).padStart(2, '0'))
        .join('');
      return json({ RGB: `0x${hex.padEnd(6, hex)}` });
    }
    default:
      throw new KodoError(400, `unsupported processing command ${name}`);
  }
}
