// A local OpenAI-compatible chat-completions endpoint that answers at once, so translate's
// budget measures the service (its HTTP call included), not a model. Prints `listening <port>`.
import { createServer } from 'node:http';

const answer = JSON.stringify({
  id: 'bench',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: ' Bonjour tout le monde. ' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
});

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(req.url.endsWith('/chat/completions') ? 200 : 404, { 'content-type': 'application/json' });
    res.end(answer);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
