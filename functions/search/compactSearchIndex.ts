import { compactSearchIndex } from '../../shared/application/search/searchCompactor.ts';

/** Scheduled (EventBridge), not an API route: writes a fresh search snapshot. */
export const handler = async () => {
  const pointer = await compactSearchIndex();
  console.log(
    JSON.stringify(
      pointer ? { message: 'search snapshot written', ...pointer } : { message: 'search snapshot superseded' },
    ),
  );
  return pointer;
};
