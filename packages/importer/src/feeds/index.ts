export { BANDCAMP_FEED, bandcampRowOf, parseBandcampFeed } from './bandcamp-feed.js';
export { FESTIVALS_FEED, festivalRowOf, parseFestivalsFeed } from './festivals-feed.js';
export { DEFAULT_FEED_BATCH_SIZE, type FeedFormat, type ParseFeedOptions, parseFeed } from './parse-feed.js';
export { type NumberedLine, readLines } from './read-lines.js';
export { type BandcampLine, BandcampLineSchema, type FestivalLine, FestivalLineSchema } from './schemas.js';
