// Preloaded into server-everything (`node --import`) for the HTTP interop tests: a server that
// listens on a bare port listens on 127.0.0.1 only, never on every interface, and once it
// listens says on which port as a line on stderr (`toolnexus: listening on 127.0.0.1:PORT`),
// so a test can give it port 0 and read the port the system chose.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if (typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) {
    const callback = args.find((a) => typeof a === "function");
    this.once("listening", () => {
      process.stderr.write(`toolnexus: listening on 127.0.0.1:${this.address().port}\n`);
    });
    return listen.call(this, { port: Number(port), host: "127.0.0.1" }, callback);
  }
  return listen.apply(this, args);
};
