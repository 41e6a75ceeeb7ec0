import type { Dashboard, DashboardTemplate } from '@lantern/shared';
import { AppError } from '../http/appError';
import type { DashboardSpec } from './dashboardYaml';
import type { DashboardsService } from './dashboards.service';

/**
 * The gallery behind "New dashboard" (issue 41): the built-in templates with their one-line
 * description, and a new dashboard made from one of them: every panel, whether or not the project
 * sends its metrics yet, as an edited copy without the template's id (template sync keeps its own
 * dashboard of that template apart).
 */
export function createTemplateGallery(templates: readonly DashboardSpec[], service: DashboardsService) {
  return {
    list(): DashboardTemplate[] {
      return templates.map((t) => ({ id: t.id, name: t.name, description: t.description, tags: t.tags }));
    },
    async create(projectId: number, templateId: string): Promise<Dashboard> {
      const spec = templates.find((t) => t.id === templateId);
      if (!spec) throw new AppError('not_found', 'template_not_found', `template "${templateId}" not found`);
      return service.createFromSpec(projectId, spec);
    },
  };
}
export type TemplateGallery = ReturnType<typeof createTemplateGallery>;
