# DiaCare production image: Debian with Chromium (PDF rendering) and Node.js 20.
# docker build -t diacare . && docker run -p 3000:3000 -e DATABASE_URL=... -e SESSION_SECRET=... \
#   -e SMTP_URL=... -e APP_URL=https://... diacare
FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV PUPPETEER_SKIP_DOWNLOAD=1 PRISMA_HIDE_UPDATE_MESSAGE=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx prisma generate && npx remix build && npm prune --omit=dev

FROM node:20-bookworm-slim
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tini chromium fonts-noto-core fonts-dejavu-core ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production DEPLOY_ENV=production HOST=0.0.0.0 PORT=3000 CHROMIUM_PATH=/usr/bin/chromium \
  NODE_OPTIONS=--max-old-space-size=768
COPY --from=build /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# tini as PID 1 reaps Chromium helpers orphaned when the PDF browser exits (npm/node do not).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["npx", "tsx", "server/start.ts"]
