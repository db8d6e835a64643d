import { describe, expect, it } from 'vitest';
import { planCdnRequest } from './cdn-request';

describe('CDN request from typed lines', () => {
  it('splits files from folders, drops blanks and repeats', () => {
    const plan = planCdnRequest(
      'https://cdn.example.com/a.jpg\n\n https://cdn.example.com/clips/ \nhttps://cdn.example.com/a.jpg\r\nhttp://cdn.example.com/b.png',
      'refresh',
    );
    expect(plan).toEqual({
      urls: ['https://cdn.example.com/a.jpg', 'http://cdn.example.com/b.png'],
      dirs: ['https://cdn.example.com/clips/'],
      problems: [],
    });
  });

  it('names lines that are not URLs', () => {
    expect(planCdnRequest('cdn.example.com/a.jpg\nftp://x/y', 'refresh').problems).toEqual([
      '2 lines are not an http(s) URL: cdn.example.com/a.jpg, ftp://x/y',
    ]);
  });

  it('holds the service limits before anything is sent', () => {
    const urls = Array.from({ length: 101 }, (_, i) => `https://cdn.example.com/${i}.jpg`).join('\n');
    expect(planCdnRequest(urls, 'refresh').problems).toEqual(['101 URLs: at most 100 go in one request']);
    const dirs = Array.from({ length: 11 }, (_, i) => `https://cdn.example.com/d${i}/`).join('\n');
    expect(planCdnRequest(dirs, 'refresh').problems).toEqual(['11 folders: at most 10 go in one request']);
    expect(planCdnRequest('https://cdn.example.com/d/', 'prefetch').problems).toEqual(['Folders cannot be prefetched: name each file']);
  });
});
