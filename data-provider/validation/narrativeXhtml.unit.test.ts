import { describe, expect, it } from 'vitest';
import { narrativeActiveContent } from './narrativeXhtml';
import { validatePrimitive } from './primitiveRules';

const div = (inner: string) => `<div xmlns="http://www.w3.org/1999/xhtml">${inner}</div>`;

describe('narrative XHTML without active content (FHIR txt-1)', () => {
  it.each([
    ['Synthea-style text, lists and breaks', 'Generated: <b>Asthma</b><br/><ul><li>one</li><li>two</li></ul>'],
    ['a link with an escaped query', '<a href="https://example.org/a?x=1&amp;y=2">report</a>'],
    [
      'relative, fragment, mailto and tel links',
      '<a href="Patient/1">p</a><a href="#top">t</a><a href="mailto:a@b.example">m</a><a href="tel:+15551234">c</a>',
    ],
    [
      'an inline raster image and an address image',
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot"/><img src="Binary/12" alt="scan"/>',
    ],
    [
      'tables with presentation attributes and inline style',
      '<table border="1" style="color: red; width: 50%"><tr><td colspan="2">x</td></tr></table>',
    ],
    ['a plain comment and escaped text', '<!-- made by hand --> 3 &lt; 4 &amp;&amp; 5 &gt; 2'],
    ['numeric references and single quotes', "<span title='caf&#233; &#x2014; ok'>x</span>"],
    ['an HTML5 formatting element', '<section><p>Plan</p></section>'],
  ])('accepts %s', (_what, inner) => {
    expect(narrativeActiveContent(div(inner))).toBeUndefined();
  });

  it.each([
    ['a script', '<script>alert(1)</script>', 'the <script> element'],
    ['a script in upper case', '<SCRIPT>alert(1)</SCRIPT>', 'the <script> element'],
    [
      'a namespaced script',
      '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>',
      'the <script> element',
    ],
    ['an iframe', '<iframe src="https://evil.example"></iframe>', 'the <iframe> element'],
    ['a form', '<form><input name="password"/></form>', 'the <form> element'],
    ['an svg image with a handler', '<svg onload="alert(1)"></svg>', 'the <svg> element'],
    ['a style element', '<style>body{display:none}</style>', 'the <style> element'],
    ['a base element', '<base href="https://evil.example/"/>', 'the <base> element'],
    ['an event attribute', '<img src="x" onerror="alert(1)"/>', 'the event attribute onerror'],
    ['an event attribute in capitals', '<b ONMOUSEOVER="alert(1)">x</b>', 'the event attribute ONMOUSEOVER'],
    ['a javascript link', '<a href="javascript:alert(1)">x</a>', 'a "javascript:" address in href'],
    [
      'a javascript link hidden by a numeric reference',
      '<a href="jav&#x61;script:alert(1)">x</a>',
      'a "javascript:" address in href',
    ],
    [
      'a javascript link split by a tab reference',
      '<a href="java&#9;script:alert(1)">x</a>',
      'a "javascript:" address in href',
    ],
    [
      'a javascript link behind leading spaces',
      '<a href="  javascript:alert(1)">x</a>',
      'a "javascript:" address in href',
    ],
    [
      'an HTML named entity in an address',
      '<a href="javascript&colon;alert(1)">x</a>',
      'an HTML entity in the href attribute (only &amp; &lt; &gt; &quot; &apos; and numeric ones)',
    ],
    [
      'a data URL page',
      '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">x</a>',
      'a "data:" address in href',
    ],
    ['an inline SVG image', '<img src="data:image/svg+xml;base64,PHN2Zz4="/>', 'a "data:" address in src'],
    ['a vbscript image', '<img src="vbscript:msgbox(1)"/>', 'a "vbscript:" address in src'],
    ['a CSS expression', '<span style="width: expression(alert(1))">x</span>', '"expression(" in a style attribute'],
    [
      'a CSS javascript URL',
      '<span style="background: url(java\\script:alert(1))">x</span>',
      '"javascript:" in a style attribute',
    ],
    ['srcdoc', '<img srcdoc="x" src="a.png"/>', 'the srcdoc attribute'],
    ['an unquoted attribute', '<a href=javascript:alert(1)>x</a>', 'an unquoted value of the href attribute'],
    ['an attribute without a value', '<td nowrap>x</td>', 'the nowrap attribute without a value'],
    ['a raw "<" in text', 'if a < b then', 'a "<" that starts no element (write &lt; in text)'],
    ['a "<" inside an attribute', '<span title="<script>">x</span>', 'a "<" inside the title attribute (write &lt;)'],
    ['a comment HTML ends early', '<!--><script>alert(1)</script>-->', 'markup inside a comment'],
    ['a comment HTML ends early, the other way', '<!--->x<img src=x onerror=alert(1)>-->', 'markup inside a comment'],
    ['a CDATA section', '<![CDATA[<script>alert(1)</script>]]>', 'a "<!" or "<?" declaration'],
    ['a processing instruction', '<?xml-stylesheet href="evil.xsl"?>', 'a "<!" or "<?" declaration'],
    ['a tag that runs into the next', '<b title="x"', 'a malformed <b> tag'],
    ['a closing tag with attributes', '</b onclick="x">', 'a malformed <b> tag'],
  ])('refuses %s', (_what, inner, problem) => {
    expect(narrativeActiveContent(div(inner))).toBe(problem);
  });

  it('refuses a narrative that ends inside a tag or a comment', () => {
    expect(narrativeActiveContent('<div xmlns="http://www.w3.org/1999/xhtml"><b title="x"')).toBe(
      'an unterminated <b> tag',
    );
    expect(narrativeActiveContent('<div xmlns="http://www.w3.org/1999/xhtml"><!-- x')).toBe('an unterminated comment');
  });

  it('is the xhtml rule the browser and the server share, with the rule it breaks named', () => {
    expect(validatePrimitive('xhtml', div('<script>alert(1)</script>'))).toBe(
      'Narrative XHTML may not contain the <script> element (FHIR txt-1)',
    );
    expect(validatePrimitive('xhtml', '   ')).toBe('Invalid xhtml: only white space');
    expect(validatePrimitive('xhtml', div('fine'))).toBeUndefined();
  });
});
