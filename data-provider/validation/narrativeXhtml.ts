/**
 * FHIR's rule for narrative XHTML (invariant txt-1), the part that keeps active content out: no
 * scripts, styles, forms, frames, objects, document-level elements or event attributes, and links
 * and images only to ordinary addresses. The web app sanitizes a narrative again before it shows
 * one, but other clients read what the server stores, so a narrative that could run code is refused
 * on the way in, where its author still has it.
 *
 * The check is written so that no reading of the text as HTML finds more than it does: every `<`
 * must start an element, a closing tag or a plain comment (XML, which FHIR's XHTML is, has no other
 * raw `<`), attribute values must be quoted and hold no `<`, and only XML's own five named entities
 * are accepted inside attribute values (HTML's `&colon;` would otherwise hide a scheme). Formatting
 * elements outside HTML 4's list are tolerated: they cannot run anything.
 */

/** Elements that run code, load documents, take input or change how the rest of the page is read. */
const forbiddenElements = new Set([
  'applet',
  'audio',
  'base',
  'body',
  'button',
  'embed',
  'form',
  'frame',
  'frameset',
  'head',
  'html',
  'iframe',
  'input',
  'link',
  'math',
  'meta',
  'noembed',
  'noframes',
  'noscript',
  'object',
  'option',
  'param',
  'plaintext',
  'portal',
  'script',
  'select',
  'source',
  'style',
  'svg',
  'template',
  'textarea',
  'title',
  'track',
  'video',
  'xmp',
]);

/** Attributes that are never allowed, whatever their value. */
const forbiddenAttributes = new Set(['srcdoc', 'formaction', 'action']);

/** Attributes whose value a browser follows as an address. */
const urlAttributes = new Set([
  'href',
  'src',
  'background',
  'cite',
  'longdesc',
  'poster',
  'usemap',
  'dynsrc',
  'lowsrc',
  'data',
  'codebase',
  'srcset',
]);

/** Schemes a narrative's link or image may use; an address without a scheme is relative and allowed. */
const allowedSchemes = new Set(['http', 'https', 'mailto', 'tel', 'ftp', 'urn']);

/** An inline raster image (`data:image/png;base64,…`); SVG is left out, it can carry script. */
const inlineRasterImage = /^data:image\/(?:png|gif|jpe?g|webp|bmp)[;,]/;

const xmlEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const elementName = /[A-Za-z][\w:.-]*/y;
const attributeName = /[^\s"'<>/=]+/y;
const whiteSpace = /\s*/y;

function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

/** A name without its namespace prefix, lowercased (`xhtml:script` is a script to an XML reader). */
function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1).toLowerCase();
}

/**
 * An attribute value as a browser reads it: character references decoded, with or without their
 * `;`. Undefined when it names an entity other than XML's five (HTML knows hundreds, e.g. `&Tab;`).
 */
function decodedValue(raw: string): string | undefined {
  let unknownEntity = false;
  const decoded = raw.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[A-Za-z][A-Za-z0-9]*);?/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    const named = xmlEntities[ref];
    if (named === undefined || !whole.endsWith(';')) unknownEntity = true;
    return named ?? '';
  });
  return unknownEntity ? undefined : decoded;
}

/** Why an address in a narrative is refused, or undefined. */
function addressProblem(attribute: string, value: string): string | undefined {
  // Browsers drop control characters and white space inside a scheme (`java\tscript:`).
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const addresses = attribute === 'srcset' ? compact.split(',') : [compact];
  for (const address of addresses) {
    const scheme = /^([a-z][a-z0-9+.-]*):/.exec(address)?.[1];
    if (scheme === undefined || allowedSchemes.has(scheme)) continue;
    if (scheme === 'data' && attribute === 'src' && inlineRasterImage.test(address)) continue;
    return `a "${scheme}:" address in ${attribute}`;
  }
  return undefined;
}

/** Why an inline style is refused: the old browser ways to run code from CSS. */
function styleProblem(value: string): string | undefined {
  const compact = value
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/[\s\\]/g, '')
    .toLowerCase();
  for (const word of ['expression(', 'javascript:', 'vbscript:', '-moz-binding', 'behavior:', '@import']) {
    if (compact.includes(word)) return `"${word}" in a style attribute`;
  }
  return undefined;
}

function attributeProblem(name: string, rawValue: string): string | undefined {
  const local = localName(name);
  if (local.startsWith('on')) return `the event attribute ${name}`;
  if (forbiddenAttributes.has(local)) return `the ${name} attribute`;
  if (rawValue.includes('<')) return `a "<" inside the ${name} attribute (write &lt;)`;
  const value = decodedValue(rawValue);
  if (value === undefined)
    return `an HTML entity in the ${name} attribute (only &amp; &lt; &gt; &quot; &apos; and numeric ones)`;
  if (urlAttributes.has(local)) return addressProblem(local, value);
  if (local === 'style') return styleProblem(value);
  return undefined;
}

/**
 * Why this narrative XHTML may not be stored, as a short phrase ("the <script> element"), or
 * undefined when it holds no active content.
 */
export function narrativeActiveContent(xhtml: string): string | undefined {
  let at = 0;
  for (;;) {
    const open = xhtml.indexOf('<', at);
    if (open < 0) return undefined;
    if (xhtml.startsWith('<!--', open)) {
      const end = xhtml.indexOf('-->', open + 4);
      if (end < 0) return 'an unterminated comment';
      const body = xhtml.slice(open + 4, end);
      // HTML ends a comment early at `<!-->` or `<!--->`; markup inside one is read differently by each parser.
      if (body.startsWith('>') || body.startsWith('->') || /[<>]|--/.test(body)) return 'markup inside a comment';
      at = end + 3;
      continue;
    }
    if (xhtml[open + 1] === '!' || xhtml[open + 1] === '?') return 'a "<!" or "<?" declaration';
    let position = open + 1;
    const closing = xhtml[position] === '/';
    if (closing) position++;
    const name = matchAt(elementName, xhtml, position);
    if (name === undefined) return 'a "<" that starts no element (write &lt; in text)';
    if (forbiddenElements.has(localName(name))) return `the <${localName(name)}> element`;
    position += name.length;
    for (;;) {
      position += matchAt(whiteSpace, xhtml, position)?.length ?? 0;
      if (position >= xhtml.length) return `an unterminated <${name}> tag`;
      if (xhtml[position] === '>') break;
      if (!closing && xhtml.startsWith('/>', position)) {
        position++;
        break;
      }
      const attribute = closing ? undefined : matchAt(attributeName, xhtml, position);
      if (attribute === undefined) return `a malformed <${name}> tag`;
      position += attribute.length;
      position += matchAt(whiteSpace, xhtml, position)?.length ?? 0;
      if (xhtml[position] !== '=') return `the ${attribute} attribute without a value`;
      position++;
      position += matchAt(whiteSpace, xhtml, position)?.length ?? 0;
      const quote = xhtml[position];
      if (quote !== '"' && quote !== "'") return `an unquoted value of the ${attribute} attribute`;
      const end = xhtml.indexOf(quote, position + 1);
      if (end < 0) return `an unterminated value of the ${attribute} attribute`;
      const problem = attributeProblem(attribute, xhtml.slice(position + 1, end));
      if (problem) return problem;
      position = end + 1;
    }
    at = position + 1;
  }
}
