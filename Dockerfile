# syntax=docker/dockerfile:1
# Multi-stage image of the CMS service: build with every dependency, run with production ones only.
#   docker build -t cms-service .
#   docker run -p 3000:3000 -e HOST=0.0.0.0 -e MONGODB_URI=... -e CMS_JWT_SECRET=... cms-service
# The runtime install is the same `npm ci --omit=dev --omit=optional` over the built tree that
# packages/server/src/e2e/production-install.int.spec.ts performs on every `npm test`.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.json ./
COPY packages ./packages
RUN npm ci --no-audit --no-fund && npm run build

FROM node:20-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/packages ./packages
RUN rm -rf packages/*/node_modules packages/*/src \
  && npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force \
  && find packages -path '*/dist/*' \( -name '*.spec.js' -o -name '*.spec.d.ts' -o -name '*.map' \) -delete
USER node
EXPOSE 3000
# Asks the address the service listens on (loopback when it listens on every address).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "const h=process.env.HOST||'127.0.0.1';const a=['0.0.0.0','::'].includes(h)?'127.0.0.1':h.includes(':')?'['+h+']':h;fetch('http://'+a+':'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node as PID 1 receives SIGTERM itself: the service drains (/readyz 503) and exits 0.
CMD ["node", "packages/server/dist/main.js"]
