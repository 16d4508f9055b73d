import { describe, expect, it } from 'vitest';
import { ServerUrls } from '../client';
import { imageSource } from './imageSource';

const urls = new ServerUrls({ baseUrl: 'https://emr.example/', fhirUrlPath: 'fhir/R4' });
const judge = (address: string) => urls.fileAddress(address);

describe('imageSource: what a photo <img> may load', () => {
  it('loads a raster data image and a signed storage address of this server', () => {
    expect(imageSource({ contentType: 'image/png', data: 'iVBORw0KGgo=' }, judge)).toBe(
      'data:image/png;base64,iVBORw0KGgo=',
    );
    const signed = 'https://emr.example/storage/b1/v1?Expires=1&Signature=abc';
    expect(imageSource({ contentType: 'image/jpeg', url: signed }, judge)).toBe(urls.fileAddress(signed).href);
  });

  it('never loads another path of this server (a photo pointing at the sign-out route), another site or script', () => {
    for (const url of [
      'https://emr.example/oauth2/logout',
      'https://tracker.example/pixel.png',
      'javascript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    ]) {
      expect(imageSource({ contentType: 'image/png', url }, judge)).toBeUndefined();
    }
    expect(imageSource({ contentType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' }, judge)).toBeUndefined();
  });

  it('shows initials for a Binary (an <img> sends no token) and for no photo', () => {
    expect(imageSource({ contentType: 'image/png', url: 'Binary/b1' }, judge)).toBeUndefined();
    expect(imageSource(undefined, judge)).toBeUndefined();
    expect(imageSource({ contentType: 'image/png' }, judge)).toBeUndefined();
  });
});
