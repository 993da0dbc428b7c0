import { describe, expect, it } from 'vitest';
import { createPathAccess } from './path-guard';
import { createRecentFiles } from './recent-files';

describe('which files the page may open', () => {
  const access = async (recent: string[] = []) => {
    const recentFiles = createRecentFiles();
    for (const path of recent) await recentFiles.add(path);
    return createPathAccess({ recentFiles, howToOpen: 'Use the Open dialog.' });
  };

  it('a granted file (a drop, a command-line argument) and a recent file, by any spelling of their path', async () => {
    const paths = await access(['/home/me/runs/b.recording']);
    paths.grantRead('/home/me/runs/a.sse');
    expect(await paths.readable('/home/me/runs/./a.sse')).toBe('/home/me/runs/a.sse');
    expect(await paths.readable('/home/me/other/../runs/b.recording')).toBe('/home/me/runs/b.recording');
  });

  it('nothing else, saying how to open a file instead', async () => {
    const paths = await access(['/home/me/runs/b.recording']);
    paths.grantRead('/home/me/runs/a.sse');
    for (const path of ['/etc/shadow', '/home/me/runs/a.sse.bak', '/home/me/runs', '../../etc/passwd']) {
      await expect(paths.readable(path)).rejects.toThrow(
        `Refused to open ${JSON.stringify(path)}: the inspector opens only files you chose. Use the Open dialog.`,
      );
    }
  });
});
