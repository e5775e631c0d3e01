import { productAccessEndpoint } from './productAccessEndpoint.ts';

export const handler = productAccessEndpoint('enterable');
