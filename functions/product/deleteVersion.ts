import { deleteValueEndpoint } from './deleteValueEndpoint.ts';

export const handler = deleteValueEndpoint('version');
