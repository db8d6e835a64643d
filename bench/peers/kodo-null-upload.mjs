// The least a Kodo v2 multipart server can do: answer each part with the md5 the SDK checks,
// store nothing, check nothing else. The SDK against it shows the client's own ceiling on this
// machine, next to which the storage emulator's upload rate is read. Prints `listening <port>`.
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';

const server = createServer(async (req, res) => {
  const md5 = createHash('md5');
  for await (const chunk of req) md5.update(chunk);
  const path = req.url ?? '';
  res.setHeader('Content-Type', 'application/json');
  if (/\/uploads$/.test(path)) {
    res.end(JSON.stringify({ uploadId: 'null', expireAt: Math.floor(Date.now() / 1000) + 3600 }));
  } else if (/\/uploads\/null\/\d+$/.test(path)) {
    const sum = md5.digest('hex');
    res.end(JSON.stringify({ etag: sum, md5: sum }));
  } else if (/\/uploads\/null$/.test(path)) {
    res.end(JSON.stringify({ hash: '', key: '' }));
  } else {
    res.statusCode = 404;
    res.end(JSON.stringify({ error: 'not a multipart upload path' }));
  }
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
// A clean exit on SIGTERM, so `--cpu-prof` can write its profile.
process.on('SIGTERM', () => server.close(() => process.exit(0)));
