// Preloaded into server-everything (`node --import`) for the HTTP interop tests: a server that
// listens on a bare port listens on 127.0.0.1 only, never on every interface.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  if (typeof port === "number" || (typeof port === "string" && /^\d+$/.test(port))) {
    const callback = args.find((a) => typeof a === "function");
    return listen.call(this, { port: Number(port), host: "127.0.0.1" }, callback);
  }
  return listen.apply(this, args);
};
